//! The argv template read as a grammar (DESIGN.md §12): a command line's
//! words read the way its program reads them, so that the hook matches a
//! line by meaning and not by spelling.
//!
//! The template splits into *positionals* (literal words such as a
//! subcommand, `--`, and the slots of operands, in order) and *options*
//! (literal `-x` words and the slots with a `flag`), which may come in any
//! order within their *scope*: the stretch of the line between two literal
//! positionals, so that `git -C DIR log` and `git log -C` stay apart. The
//! declaration's [`Syntax`] says which spellings of an option are the same
//! (`-n3`, `-n 3`, `--max-count=3`, `--max-count 3`; `-la` and `-l -a`)
//! and whether options may follow operands.
//!
//! Reading a line gives a [`Reading`]: the options it uses (which declared
//! option, with what value) and its operand words. Reading the argv that
//! `run` would build from the recovered arguments gives another; the two
//! must be equal ([`Reading::same_meaning`]), so an argument the line
//! leaves out but Phase 1 fills in (a default) is never waved through.
//!
//! Where a template word could be an option's value or an operand
//! (`--mode safe run`), it is read as the value: a reading that binds
//! more admits fewer lines. A template this reader cannot take apart (a
//! parameter in two slots, an option after `--`) is matched as written,
//! by [`super::argv_match`].

use serde_json::{Map, Value};

use super::argv_match::{MAX_CANDIDATES, MAX_MATCHED_WORDS, Shape, shape};
use crate::contract::programs::syntax::{GIT_GLOBAL_VALUED, ends_options};
use crate::contract::{ArgvPart, Declaration, ParamSlot, Syntax};

/// The alias that stands for `-` followed by digits (`-20`): the option
/// with the digits as its value.
pub const NUMBER_ALIAS: &str = "-#";

/// Steps of the operand search before it gives up.
const MAX_STEPS: usize = 100_000;

/// A declaration's template, compiled for reading lines.
#[derive(Debug)]
pub struct Grammar<'d> {
    declaration: &'d Declaration,
    syntax: Syntax,
    /// Options by scope: scope `k` is the line after the `k`-th literal
    /// positional.
    scopes: Vec<Vec<Opt<'d>>>,
    /// The literal positionals that open scopes 1, 2, ...: those before
    /// the template's `--`.
    openers: Vec<&'d str>,
    positionals: Vec<Pos<'d>>,
}

#[derive(Debug, Clone, Copy)]
enum Pos<'d> {
    /// A word that must be there, as written (a subcommand).
    Literal(&'d str),
    /// The template's `--`: what follows it is never an option.
    EndOfOptions,
    /// A parameter's value as an operand (or one word per item).
    Operand { slot: &'d ParamSlot, shape: Shape },
}

/// Which spellings of an option's value the program reads alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spelling {
    /// Attached (`--x=v`, `-xv`) or the next word.
    Either,
    /// Attached only: the value is optional, or the template wrote it so
    /// and nothing says the program reads it another way.
    Attached,
    /// The next word only: a template word read as the value of the
    /// literal option before it.
    Separate,
}

#[derive(Debug)]
struct Opt<'d> {
    /// The names it goes by, the template's own first.
    names: Vec<&'d str>,
    kind: OptKind<'d>,
}

#[derive(Debug)]
enum OptKind<'d> {
    /// A literal option the template always passes, with its value.
    Fixed {
        value: Option<&'d str>,
        spelling: Spelling,
    },
    /// A parameter's flag.
    Slot {
        slot: &'d ParamSlot,
        shape: Shape,
        spelling: Spelling,
    },
}

impl Opt<'_> {
    fn spelling(&self) -> Option<Spelling> {
        match &self.kind {
            OptKind::Fixed { value: None, .. } => None,
            OptKind::Fixed { spelling, .. } => Some(*spelling),
            OptKind::Slot {
                shape: Shape::Boolean,
                ..
            } => None,
            OptKind::Slot { spelling, .. } => Some(*spelling),
        }
    }
}

/// One option as a line used it: its scope and index there, and its value
/// (empty for a switch).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Used {
    scope: usize,
    option: usize,
    value: String,
}

/// One operand word, and whether it came after the line's `--`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Operand {
    text: String,
    after_end: bool,
}

/// A line read against a grammar.
#[derive(Debug, Clone)]
pub struct Reading {
    used: Vec<Used>,
    operands: Vec<Operand>,
    /// The line has `--`.
    has_end: bool,
    /// Option words the grammar does not know, as written.
    pub unknown: Vec<String>,
    /// A known option without the value it needs, or with one it cannot
    /// take (a switch given `=x`, a value attached where the program would
    /// not read it as one).
    pub malformed: Vec<String>,
    /// Literal positionals seen in order: how far into the declared form
    /// the line got (for finding the closest declaration).
    pub literals: usize,
}

impl Reading {
    /// How many option words the grammar knew.
    pub fn known_options(&self) -> usize {
        self.used.len()
    }

    /// Whether two readings mean the same: the same options with the same
    /// values, whatever their order, and the same operands in order.
    pub fn same_meaning(&self, other: &Reading) -> bool {
        let mut mine = self.used.clone();
        let mut theirs = other.used.clone();
        mine.sort();
        theirs.sort();
        let words = |reading: &Reading| -> Vec<String> {
            reading
                .operands
                .iter()
                .map(|operand| operand.text.clone())
                .collect()
        };
        mine == theirs && words(self) == words(other) && self.unknown == other.unknown
    }
}

/// Why a line does not fit a grammar, for the closest-form message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misfit {
    /// Options the declaration does not take.
    Unknown(Vec<String>),
    /// A known option spelt so the program would read it otherwise.
    Malformed(Vec<String>),
    /// A literal option the declaration always passes is missing, or one
    /// is given twice, or an option that takes one value is repeated.
    Options(String),
    /// The operands do not fit the declared positions.
    Operands,
    /// Too many words to read.
    TooLong,
}

impl<'d> Grammar<'d> {
    /// The grammar of `declaration`'s template, or `None` when it must be
    /// matched as written (`syntax: exact`, no template, a parameter in
    /// two slots, a flag after `--`).
    pub fn of(declaration: &'d Declaration) -> Option<Self> {
        let subprocess = declaration.subprocess.as_ref()?;
        let syntax = subprocess.syntax();
        if syntax == Syntax::Exact {
            return None;
        }
        let mut seen = std::collections::HashSet::new();
        for slot in subprocess.argv.iter().filter_map(ArgvPart::slot) {
            if !seen.insert(slot.param.as_str()) {
                return None;
            }
        }
        let mut grammar = Grammar {
            declaration,
            syntax,
            scopes: vec![Vec::new()],
            openers: Vec::new(),
            positionals: Vec::new(),
        };
        let parts = &subprocess.argv;
        let mut ended = false;
        let mut index = 0;
        while index < parts.len() {
            let part = &parts[index];
            index += 1;
            let scope = grammar.scopes.len() - 1;
            match part {
                ArgvPart::Literal(word) if ended => grammar.positionals.push(Pos::Literal(word)),
                ArgvPart::Literal(word) if word == "--" => {
                    ended = true;
                    grammar.positionals.push(Pos::EndOfOptions);
                }
                ArgvPart::Literal(word) if is_option_word(word) => {
                    // The next template word, when it is a plain literal,
                    // may be this option's value.
                    let next = match parts.get(index) {
                        Some(ArgvPart::Literal(next)) if !is_option_word(next) && next != "--" => {
                            Some(next.as_str())
                        }
                        _ => None,
                    };
                    if let Some(value) = next
                        && ends_options(&subprocess.binary, word)
                    {
                        // `python -m pytest`: both words open scopes, in
                        // this order, as subcommands do.
                        for opener in [word.as_str(), value] {
                            grammar.positionals.push(Pos::Literal(opener));
                            grammar.openers.push(opener);
                            grammar.scopes.push(Vec::new());
                        }
                        index += 1;
                        continue;
                    }
                    let taken = grammar.literal_option(scope, word, next)?;
                    index += taken;
                }
                ArgvPart::Literal(word) => {
                    grammar.positionals.push(Pos::Literal(word));
                    grammar.openers.push(word);
                    grammar.scopes.push(Vec::new());
                }
                ArgvPart::Param(slot) => {
                    let shape = shape(declaration, &slot.param);
                    match &slot.flag {
                        Some(_) if ended => return None,
                        Some(flag) => {
                            // A whole word with `=` (`--untracked-files=no`)
                            // names a switch; a value would follow it.
                            if shape != Shape::Boolean
                                && slot.aliases.iter().any(|alias| alias.contains('='))
                            {
                                return None;
                            }
                            let spelling = if slot.attached_only {
                                Spelling::Attached
                            } else {
                                Spelling::Either
                            };
                            // Joined or separate only says how `run`
                            // writes the value; a program that requires
                            // one reads either.
                            let mut names = vec![flag.as_str()];
                            names.extend(slot.aliases.iter().map(String::as_str));
                            grammar.scopes[scope].push(Opt {
                                names,
                                kind: OptKind::Slot {
                                    slot,
                                    shape,
                                    spelling,
                                },
                            });
                        }
                        None => grammar.positionals.push(Pos::Operand { slot, shape }),
                    }
                }
            }
        }
        Some(grammar)
    }

    /// Adds the literal option `word` (and `next`, when it is its value)
    /// to `scope`; how many template words after `word` it took, or `None`
    /// when the template cannot be read as a grammar.
    fn literal_option(
        &mut self,
        scope: usize,
        word: &'d str,
        next: Option<&'d str>,
    ) -> Option<usize> {
        let bundles = self.bundles();
        let syntax = self.syntax;
        let options = &mut self.scopes[scope];
        if let Some((name, value)) = word.split_once('=') {
            let long = word.starts_with("--") || syntax == Syntax::Go;
            if !long {
                return None;
            }
            options.push(Opt {
                names: vec![name],
                kind: OptKind::Fixed {
                    value: Some(value),
                    spelling: Spelling::Attached,
                },
            });
            return Some(0);
        }
        let git_global = syntax == Syntax::Git && scope == 0;
        let valued = if git_global {
            GIT_GLOBAL_VALUED.contains(&word)
        } else {
            next.is_some()
        };
        let value = if valued { next } else { None };
        if git_global && valued && value.is_none() {
            return None;
        }
        let spelling = if git_global && word.starts_with("--") {
            Spelling::Either
        } else {
            Spelling::Separate
        };
        let cluster = !word.starts_with("--") && bundles && word.len() > 2;
        if cluster {
            // `-rf`: each letter its own switch, the last one taking the
            // value, if any.
            let letters: Vec<usize> = word.char_indices().skip(1).map(|(at, _)| at).collect();
            for (position, &at) in letters.iter().enumerate() {
                let end = letters.get(position + 1).copied().unwrap_or(word.len());
                let name = &word[at..end];
                if !name.is_ascii() || name == "-" {
                    return None;
                }
                let last = position + 1 == letters.len();
                // A name is `-x`: the dash and the letter, borrowed from a
                // `'static` table so that it outlives the template.
                let name = short_name(char::from(name.as_bytes()[0]))?;
                options.push(Opt {
                    names: vec![name],
                    kind: OptKind::Fixed {
                        value: if last { value } else { None },
                        spelling,
                    },
                });
            }
        } else {
            options.push(Opt {
                names: vec![word],
                kind: OptKind::Fixed { value, spelling },
            });
        }
        Some(usize::from(value.is_some()))
    }

    fn bundles(&self) -> bool {
        matches!(self.syntax, Syntax::Gnu | Syntax::Git | Syntax::Posix)
    }

    fn permutes(&self) -> bool {
        matches!(self.syntax, Syntax::Gnu | Syntax::Git)
    }

    /// The option of `scope` that goes by `name`.
    fn find(&self, scope: usize, name: &str) -> Option<usize> {
        let same = |known: &str| -> bool {
            if self.syntax == Syntax::Go {
                known.trim_start_matches('-') == name.trim_start_matches('-')
            } else {
                known == name
            }
        };
        self.scopes[scope]
            .iter()
            .position(|option| option.names.iter().any(|known| same(known)))
    }

    /// Reads `words` (the words after the program).
    pub fn read(&self, words: &[&str]) -> Result<Reading, Misfit> {
        if words.len() > MAX_MATCHED_WORDS {
            return Err(Misfit::TooLong);
        }
        let mut reading = Reading {
            used: Vec::new(),
            operands: Vec::new(),
            has_end: false,
            unknown: Vec::new(),
            malformed: Vec::new(),
            literals: 0,
        };
        let mut scope = 0;
        let mut ended = false;
        let mut operand_in_scope = false;
        let mut at = 0;
        while at < words.len() {
            let word = words[at];
            at += 1;
            if !ended && word == "--" {
                ended = true;
                reading.has_end = true;
                continue;
            }
            let options_still = !ended && (self.permutes() || !operand_in_scope);
            // An option that ends the program's own (`-m` of `python -m
            // pytest`) opens its scope where the template has it.
            let opens = !ended && self.openers.get(scope) == Some(&word);
            if options_still && !opens && is_option_word(word) {
                at += self.read_option(scope, word, words.get(at).copied(), &mut reading);
                continue;
            }
            // A literal positional of a later scope (a subcommand) opens
            // it; read before the line's `--` only.
            if opens {
                scope += 1;
                reading.literals += 1;
                operand_in_scope = false;
            } else {
                operand_in_scope = true;
            }
            reading.operands.push(Operand {
                text: word.to_owned(),
                after_end: ended,
            });
        }
        Ok(reading)
    }

    /// Reads the option word `word` (and `next`, when it takes it as its
    /// value) into `reading`; how many words after `word` it took.
    fn read_option(
        &self,
        scope: usize,
        word: &str,
        next: Option<&str>,
        reading: &mut Reading,
    ) -> usize {
        // A declared name as the whole word: `--oneline`, `-n`, and
        // multi-letter single-dash names (Go's `-run`).
        if word != NUMBER_ALIAS
            && let Some(option) = self.find(scope, word)
        {
            return self.take_value(scope, option, word, None, next, reading);
        }
        // `-20` where an option has the alias `-#` (`git log -20`,
        // `head -5`): that option, with the digits as its value.
        if let Some(digits) = word.strip_prefix('-')
            && !digits.is_empty()
            && digits.bytes().all(|byte| byte.is_ascii_digit())
            && let Some(option) = self.find(scope, NUMBER_ALIAS)
        {
            return self.take_value(scope, option, word, Some(digits), next, reading);
        }
        let long = word.starts_with("--") || !self.bundles();
        if long {
            // `--author=Ada`, Go's `-run=X`.
            if let Some((name, value)) = word.split_once('=')
                && let Some(option) = self.find(scope, name)
            {
                return self.take_value(scope, option, word, Some(value), next, reading);
            }
            reading.unknown.push(word.to_owned());
            return 0;
        }
        // A cluster of short options: `-la`, `-n3`, `-xzf FILE`. Where no
        // letter of it is known, the word is named whole (`-not`, not `-n`,
        // `-o`, `-t`): it is more likely a name the form lacks.
        let mut unknown_letters = Vec::new();
        let mut any_known = false;
        let flush = |reading: &mut Reading, unknown_letters: Vec<String>, any_known: bool| {
            if any_known || unknown_letters.len() < 2 {
                reading.unknown.extend(unknown_letters);
            } else {
                reading.unknown.push(word.to_owned());
            }
        };
        for (index, letter) in word.char_indices().skip(1) {
            let Some(name) = short_name(letter).filter(|name| *name != NUMBER_ALIAS) else {
                // Only the letter: what follows may be a value.
                unknown_letters.push(format!("-{letter}"));
                flush(reading, unknown_letters, any_known);
                return 0;
            };
            let Some(option) = self.find(scope, name) else {
                unknown_letters.push(name.to_owned());
                continue;
            };
            if !any_known {
                any_known = true;
                flush(reading, std::mem::take(&mut unknown_letters), true);
            }
            if self.scopes[scope][option].spelling().is_none() {
                reading.used.push(Used {
                    scope,
                    option,
                    value: String::new(),
                });
                continue;
            }
            let rest = &word[index + letter.len_utf8()..];
            let rest = (!rest.is_empty()).then_some(rest);
            reading.unknown.append(&mut unknown_letters);
            return self.take_value(scope, option, name, rest, next, reading);
        }
        flush(reading, unknown_letters, any_known);
        0
    }

    /// Records option `option` of `scope`, written `word`, with its value
    /// from `attached` or `next` as its spelling allows; how many words
    /// after `word` it took.
    fn take_value(
        &self,
        scope: usize,
        option: usize,
        word: &str,
        attached: Option<&str>,
        next: Option<&str>,
        reading: &mut Reading,
    ) -> usize {
        let spelling = self.scopes[scope][option].spelling();
        let (value, taken) = match (spelling, attached) {
            (None, None) => (Some(String::new()), 0),
            (None, Some(_)) => (None, 0),
            (Some(Spelling::Either | Spelling::Attached), Some(value)) => {
                (Some(value.to_owned()), 0)
            }
            (Some(Spelling::Separate), Some(_)) => (None, 0),
            (Some(Spelling::Either | Spelling::Separate), None) => match next {
                Some(next) => (Some(next.to_owned()), 1),
                None => (None, 0),
            },
            (Some(Spelling::Attached), None) => (None, 0),
        };
        match value {
            Some(value) => reading.used.push(Used {
                scope,
                option,
                value,
            }),
            None => reading.malformed.push(word.to_owned()),
        }
        taken
    }

    /// The candidate arguments a reading stands for: the options' values,
    /// then each way its operands fill the declared positions. An error
    /// says why none does.
    pub fn arguments(&self, reading: &Reading) -> Result<Vec<Map<String, Value>>, Misfit> {
        if !reading.unknown.is_empty() {
            return Err(Misfit::Unknown(reading.unknown.clone()));
        }
        if !reading.malformed.is_empty() {
            return Err(Misfit::Malformed(reading.malformed.clone()));
        }
        let mut options = Map::new();
        for (scope, declared) in self.scopes.iter().enumerate() {
            for (index, option) in declared.iter().enumerate() {
                let uses: Vec<&Used> = reading
                    .used
                    .iter()
                    .filter(|used| used.scope == scope && used.option == index)
                    .collect();
                let name = option.names[0];
                match &option.kind {
                    OptKind::Fixed { value, .. } => match uses.as_slice() {
                        [once] if once.value == value.unwrap_or_default() => {}
                        [] => return Err(Misfit::Options(format!("`{name}` is missing"))),
                        [_] => {
                            return Err(Misfit::Options(format!(
                                "`{name}` takes only `{}`",
                                value.unwrap_or_default()
                            )));
                        }
                        _ => return Err(Misfit::Options(format!("`{name}` is given twice"))),
                    },
                    OptKind::Slot { slot, shape, .. } => {
                        let value = match (shape, uses.as_slice()) {
                            (_, []) => continue,
                            (Shape::Boolean, [_]) => Value::Bool(true),
                            (Shape::Array, uses) => Value::Array(
                                uses.iter()
                                    .map(|used| unprefixed(slot, &used.value).map(Value::String))
                                    .collect::<Option<_>>()
                                    .ok_or(Misfit::Operands)?,
                            ),
                            (shape, [once]) => typed(
                                *shape,
                                unprefixed(slot, &once.value).ok_or(Misfit::Operands)?,
                            ),
                            _ => {
                                return Err(Misfit::Options(format!("`{name}` is given twice")));
                            }
                        };
                        options.insert(slot.param.clone(), value);
                    }
                }
            }
        }
        let mut search = OperandSearch {
            positionals: &self.positionals,
            operands: &reading.operands,
            has_end: reading.has_end,
            template_has_end: self
                .positionals
                .iter()
                .any(|positional| matches!(positional, Pos::EndOfOptions)),
            steps: 0,
            found: Vec::new(),
        };
        search.from(0, 0, false, &mut options);
        if search.found.is_empty() {
            return Err(Misfit::Operands);
        }
        Ok(search.found)
    }

    /// The declaration this grammar reads.
    pub fn declaration(&self) -> &'d Declaration {
        self.declaration
    }
}

/// The operands' ways into the declared positions.
struct OperandSearch<'g, 'd> {
    positionals: &'g [Pos<'d>],
    operands: &'g [Operand],
    has_end: bool,
    template_has_end: bool,
    steps: usize,
    found: Vec<Map<String, Value>>,
}

impl OperandSearch<'_, '_> {
    /// Whether operand `word` may fill a position before (`after_end`
    /// false) or after the template's `--`.
    fn fits(&self, word: usize, after_end: bool) -> bool {
        // A `--` on one side only changes nothing: what follows it could
        // not have been read as an option either way.
        if !self.has_end || !self.template_has_end {
            return true;
        }
        self.operands[word].after_end == after_end
    }

    fn from(
        &mut self,
        position: usize,
        word: usize,
        after_end: bool,
        assigned: &mut Map<String, Value>,
    ) {
        if self.found.len() >= MAX_CANDIDATES || self.steps >= MAX_STEPS {
            return;
        }
        self.steps += 1;
        let Some(positional) = self.positionals.get(position) else {
            if word == self.operands.len() {
                self.found.push(assigned.clone());
            }
            return;
        };
        match *positional {
            Pos::EndOfOptions => self.from(position + 1, word, true, assigned),
            Pos::Literal(literal) => {
                if word < self.operands.len()
                    && self.operands[word].text == literal
                    && self.fits(word, after_end)
                {
                    self.from(position + 1, word + 1, after_end, assigned);
                }
            }
            Pos::Operand { slot, shape } => {
                let mut taken = 0;
                let mut values = Vec::new();
                let most = if shape == Shape::Array {
                    self.operands.len() - word
                } else {
                    (self.operands.len() - word).min(1)
                };
                while taken < most && self.fits(word + taken, after_end) {
                    match unprefixed(slot, &self.operands[word + taken].text) {
                        Some(value) => values.push(value),
                        None => break,
                    }
                    taken += 1;
                }
                // Most words first, then fewer, then none.
                for count in (1..=taken).rev() {
                    let value = if shape == Shape::Array {
                        Value::Array(values[..count].iter().cloned().map(Value::String).collect())
                    } else {
                        typed(shape, values[0].clone())
                    };
                    assigned.insert(slot.param.clone(), value);
                    self.from(position + 1, word + count, after_end, assigned);
                    assigned.remove(&slot.param);
                    if self.found.len() >= MAX_CANDIDATES {
                        return;
                    }
                }
                self.from(position + 1, word, after_end, assigned);
            }
        }
    }
}

/// `value` without the slot's prefix, or `None` when it lacks it.
fn unprefixed(slot: &ParamSlot, value: &str) -> Option<String> {
    value.strip_prefix(slot.prefix.as_str()).map(str::to_owned)
}

/// A value typed as its parameter takes it; a value that is not of the
/// type stays text, so that Phase 1 names the type it should have been.
fn typed(shape: Shape, text: String) -> Value {
    match shape {
        Shape::Number => match serde_json::from_str::<Value>(&text) {
            Ok(number @ Value::Number(_)) => number,
            _ => Value::String(text),
        },
        Shape::Boolean => match text.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(text),
        },
        Shape::Text | Shape::Array => Value::String(text),
    }
}

/// Whether a word is read as an option: a `-` and something after it,
/// other than `--`.
fn is_option_word(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-') && word != "--"
}

/// `-x` for an ASCII letter, digit or sign `x`, from a static table.
fn short_name(letter: char) -> Option<&'static str> {
    let letter = u8::try_from(letter).ok()?;
    const NAMES: &str = "-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z\
-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z-0-1-2-3-4-5-6-7-8-9-?-@-#-%-+";
    let at = NAMES
        .as_bytes()
        .chunks(2)
        .position(|pair| pair[1] == letter)?;
    Some(&NAMES[at * 2..at * 2 + 2])
}

#[cfg(test)]
mod tests;
