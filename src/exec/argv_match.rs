//! The argv template run in reverse: from the words of a command line back
//! to the arguments that would make [`super::argv::Argv::build`] produce
//! them, for `aigent hook`.
//!
//! Each template part consumes words: a literal its own word; a parameter
//! slot its value (`VALUE`), its flag and value (`FLAG VALUE`, or
//! `FLAG=VALUE` joined), a switch's flag alone, or, for an array, the same
//! again once per item. Any parameter may also be absent; Phase 1 then says
//! whether it was required. Where words can be split more than one way
//! (an array followed by an optional value), every split is a candidate,
//! most words to the earlier slot first.
//!
//! A candidate is only a guess at the arguments: the caller checks it with
//! Phase 1 and builds the argv again, and the words must come out the same.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::contract::input_schema::primary_type;
use crate::contract::{ArgvPart, Declaration, FlagForm, Inputs, ParamSlot, ParamType};

/// At most this many words after the program are matched; a longer line
/// matches no declaration.
pub const MAX_MATCHED_WORDS: usize = 1024;

/// At most this many candidates are returned.
pub const MAX_CANDIDATES: usize = 8;

/// Steps of the search before it gives up (each step tries one way to
/// fill one slot), so that no template and line cost more than this.
const MAX_STEPS: usize = 100_000;

/// How a parameter's value is spelt in argv words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Text,
    Number,
    Boolean,
    Array,
}

pub(crate) fn shape(declaration: &Declaration, name: &str) -> Shape {
    match &declaration.inputs {
        Inputs::Parameters(parameters) => {
            match parameters.iter().find(|parameter| parameter.name == name) {
                Some(parameter) => match parameter.kind {
                    ParamType::Integer | ParamType::Number => Shape::Number,
                    ParamType::Boolean => Shape::Boolean,
                    ParamType::Array => Shape::Array,
                    ParamType::String | ParamType::Enum | ParamType::ResourceId => Shape::Text,
                },
                None => Shape::Text,
            }
        }
        Inputs::InputSchema(schema) => {
            let property = schema.properties().find(|(property, _)| *property == name);
            match property.map(|(_, schema)| primary_type(schema)) {
                Some("integer" | "number") => Shape::Number,
                Some("boolean") => Shape::Boolean,
                Some("array") => Shape::Array,
                _ => Shape::Text,
            }
        }
    }
}

/// The candidate arguments (JSON objects keyed by parameter name) under
/// which `declaration`'s template gives exactly `words`, the words after
/// the program. Empty when none does.
pub fn candidate_arguments(declaration: &Declaration, words: &[&str]) -> Vec<Map<String, Value>> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    if words.len() > MAX_MATCHED_WORDS {
        return Vec::new();
    }
    let shapes: Vec<Option<Shape>> = subprocess
        .argv
        .iter()
        .map(|part| match part {
            ArgvPart::Literal(_) => None,
            ArgvPart::Param(slot) => Some(shape(declaration, &slot.param)),
        })
        .collect();
    let mut seen = HashSet::new();
    let repeats = !subprocess.argv.iter().all(|part| match part {
        ArgvPart::Param(slot) => seen.insert(slot.param.as_str()),
        ArgvPart::Literal(_) => true,
    });
    let mut search = Search {
        repeats,
        parts: &subprocess.argv,
        shapes: &shapes,
        words,
        failed: HashSet::new(),
        steps: 0,
        found: Vec::new(),
    };
    search.from(0, 0, &mut Map::new());
    search.found
}

struct Search<'a> {
    parts: &'a [ArgvPart],
    shapes: &'a [Option<Shape>],
    words: &'a [&'a str],
    /// (part, word) pairs known to lead nowhere. What follows a pair does
    /// not depend on what was assigned before it unless a parameter has
    /// two slots, so then nothing is remembered.
    failed: HashSet<(usize, usize)>,
    repeats: bool,
    steps: usize,
    found: Vec<Map<String, Value>>,
}

impl Search<'_> {
    /// Whether it found anything from (`part`, `word`) on.
    fn from(&mut self, part: usize, word: usize, assigned: &mut Map<String, Value>) -> bool {
        if self.found.len() >= MAX_CANDIDATES || self.steps >= MAX_STEPS {
            return false;
        }
        self.steps += 1;
        if part == self.parts.len() {
            if word == self.words.len() {
                self.found.push(assigned.clone());
                return true;
            }
            return false;
        }
        if self.failed.contains(&(part, word)) {
            return false;
        }
        let before = self.found.len();
        match &self.parts[part] {
            ArgvPart::Literal(literal) => {
                if self.words.get(word) == Some(&literal.as_str()) {
                    self.from(part + 1, word + 1, assigned);
                }
            }
            ArgvPart::Param(slot) => {
                let shape = self.shapes[part].unwrap_or(Shape::Text);
                if let Some(value) = assigned.get(&slot.param).cloned() {
                    // A parameter used twice: the second slot repeats it.
                    if let Some(used) = self.repeat(slot, shape, &value, word) {
                        self.from(part + 1, word + used, assigned);
                    }
                } else {
                    for (value, used) in self.fillings(slot, shape, word) {
                        assigned.insert(slot.param.clone(), value);
                        self.from(part + 1, word + used, assigned);
                        assigned.remove(&slot.param);
                        if self.found.len() >= MAX_CANDIDATES {
                            break;
                        }
                    }
                    // Absent: adds no word.
                    self.from(part + 1, word, assigned);
                }
            }
        }
        let found_any = self.found.len() > before;
        if !found_any && !self.repeats {
            self.failed.insert((part, word));
        }
        found_any
    }

    /// The ways `slot` can take words from `word` on: (value, words used),
    /// most words first.
    fn fillings(&self, slot: &ParamSlot, shape: Shape, word: usize) -> Vec<(Value, usize)> {
        let rest = &self.words[word.min(self.words.len())..];
        match (shape, &slot.flag) {
            (Shape::Boolean, Some(flag)) => {
                if rest.first() == Some(&flag.as_str()) {
                    vec![(Value::Bool(true), 1)]
                } else {
                    Vec::new()
                }
            }
            (Shape::Array, _) => {
                let per_item = if slot.flag.is_some() && slot.form == FlagForm::Separate {
                    2
                } else {
                    1
                };
                let mut items = Vec::new();
                let mut at = 0;
                while let Some(item) = self.one_value(slot, Shape::Text, &rest[at..]) {
                    items.push(item);
                    at += per_item;
                }
                (1..=items.len())
                    .rev()
                    .map(|count| (Value::Array(items[..count].to_vec()), count * per_item))
                    .collect()
            }
            (shape, Some(_)) => {
                let used = if slot.form == FlagForm::Separate {
                    2
                } else {
                    1
                };
                self.one_value(slot, shape, rest)
                    .map(|value| vec![(value, used)])
                    .unwrap_or_default()
            }
            (shape, None) => self
                .one_value(slot, shape, rest)
                .map(|value| vec![(value, 1)])
                .unwrap_or_default(),
        }
    }

    /// One value at the start of `rest` (with its flag, if the slot has
    /// one), typed by `shape`.
    fn one_value(&self, slot: &ParamSlot, shape: Shape, rest: &[&str]) -> Option<Value> {
        let text = match (&slot.flag, slot.form) {
            (None, _) => *rest.first()?,
            (Some(flag), FlagForm::Separate) => {
                if rest.first()? != flag {
                    return None;
                }
                *rest.get(1)?
            }
            (Some(flag), FlagForm::Joined) => rest
                .first()?
                .strip_prefix(flag.as_str())?
                .strip_prefix('=')?,
        };
        let text = text.strip_prefix(slot.prefix.as_str())?;
        match shape {
            Shape::Text | Shape::Array => Some(Value::String(text.to_owned())),
            Shape::Number => match serde_json::from_str::<Value>(text) {
                Ok(number @ Value::Number(_)) => Some(number),
                _ => None,
            },
            Shape::Boolean => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
        }
    }

    /// How many words a second slot for an already assigned parameter
    /// takes, if the words there repeat its value.
    fn repeat(&self, slot: &ParamSlot, shape: Shape, value: &Value, word: usize) -> Option<usize> {
        self.fillings(slot, shape, word)
            .into_iter()
            .find(|(candidate, _)| candidate == value)
            .map(|(_, used)| used)
    }
}

#[cfg(test)]
mod tests;
