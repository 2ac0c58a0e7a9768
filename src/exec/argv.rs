//! The argv a declared command runs (DESIGN.md §6): `binary`, then the
//! declaration's argv template, each literal as it is and each parameter
//! slot filled from the validated value (the older `hardcoded_args` +
//! `user_controlled_args` form is the template "literals, then each
//! parameter"). It is handed to the operating system as a list; no shell ever
//! sees it, so nothing in it is split, globbed or expanded.
//!
//! How a validated value becomes argv words:
//! - a string (and an `enum` or `resource_id`) is passed exactly as given;
//! - an array expands to one word per item, in order;
//! - a number is exactly the text it was given in (`42`, `-3`, `1.50`,
//!   `1e3`, `18446744073709551615`); a default read from the declaration
//!   is its shortest decimal text, never in exponent form;
//! - a boolean in a slot without a flag is the word `true` or `false`; in
//!   a slot with a flag it is a switch: the flag alone when true, nothing
//!   when false;
//! - a slot with a flag puts `FLAG VALUE` (or `FLAG=VALUE` in the joined
//!   form) per value, so an array repeats the flag;
//! - an optional argument that was left out (and has no default) adds no
//!   word, and neither does its flag; a default is passed like a given
//!   value;
//! - `null`, which an `input_schema` may allow, adds no word;
//! - an object, or an array holding objects, arrays or nulls, has no argv
//!   form and is refused.

use serde_json::Value;

use super::env::{ChildEnv, Shown};
use crate::contract::{ArgvPart, Declaration, EnvValue, FlagForm};
pub use crate::guard::REDACTED;
use crate::guard::{ArgValue, ValidatedArguments};

/// The words of a command line, with which of them hold sensitive values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Argv {
    words: Vec<String>,
    sensitive: Vec<bool>,
    /// Sensitive `FLAG=VALUE` words: (index, length of FLAG), so that the
    /// redacted form can still show the flag.
    joined_flag: Vec<(usize, usize)>,
    /// The child's environment (see [`super::env`]).
    env: ChildEnv,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgvError {
    #[error("`{command}` declares no subprocess, so there is nothing to run")]
    NoSubprocess { command: String },
    #[error(
        "`{name}` is {kind}, which has no argv form; only strings, numbers, booleans and arrays of them can be passed"
    )]
    Unsupported { name: String, kind: &'static str },
    #[error("{field} contains a NUL byte, which cannot be passed in an argv")]
    NulByte { field: String },
    #[error("`{name}` gives {count} values, but the environment variable `{variable}` holds one")]
    EnvNotScalar {
        name: String,
        variable: String,
        count: usize,
    },
}

impl Argv {
    /// The argv for `validated`, which must have passed Phase 1 for
    /// `declaration`.
    pub fn build(
        declaration: &Declaration,
        validated: &ValidatedArguments,
    ) -> Result<Self, ArgvError> {
        let subprocess =
            declaration
                .subprocess
                .as_ref()
                .ok_or_else(|| ArgvError::NoSubprocess {
                    command: declaration.name.clone(),
                })?;
        let mut argv = Self {
            words: Vec::with_capacity(1 + subprocess.argv.len()),
            sensitive: Vec::new(),
            joined_flag: Vec::new(),
            env: ChildEnv::inherited(subprocess, |name| std::env::var_os(name)),
        };
        argv.set_declared_env(declaration, validated)?;
        argv.push("subprocess.binary", subprocess.binary.clone(), false)?;
        for (index, part) in subprocess.argv.iter().enumerate() {
            let slot = match part {
                ArgvPart::Literal(word) => {
                    argv.push(&format!("subprocess.argv[{index}]"), word.clone(), false)?;
                    continue;
                }
                ArgvPart::Param(slot) => slot,
            };
            let name = &slot.param;
            let Some(argument) = validated
                .arguments
                .iter()
                .find(|argument| &argument.name == name)
            else {
                continue;
            };
            let field = format!("`{name}`");
            let sensitive = argument.sensitive;
            let glue = |word: String| {
                if slot.prefix.is_empty() {
                    word
                } else {
                    format!("{}{word}", slot.prefix)
                }
            };
            match (&slot.flag, &argument.value) {
                (None, value) => {
                    for word in words_of(name, value)? {
                        argv.push(&field, glue(word), sensitive)?;
                    }
                }
                // A switch: the flag alone when true, nothing when false.
                (Some(flag), ArgValue::Boolean(on)) => {
                    if *on {
                        argv.push(&field, flag.clone(), false)?;
                    }
                }
                (Some(flag), value) => {
                    for word in words_of(name, value)? {
                        match slot.form {
                            FlagForm::Separate => {
                                argv.push(&field, flag.clone(), false)?;
                                argv.push(&field, glue(word), sensitive)?;
                            }
                            FlagForm::Joined => {
                                argv.push_joined(&field, flag, glue(word), sensitive)?;
                            }
                        }
                    }
                }
            }
        }
        Ok(argv)
    }

    /// `subprocess.env`: literals as given, parameters from their validated
    /// value (left unset when the parameter is absent).
    fn set_declared_env(
        &mut self,
        declaration: &Declaration,
        validated: &ValidatedArguments,
    ) -> Result<(), ArgvError> {
        let Some(subprocess) = &declaration.subprocess else {
            return Ok(());
        };
        for var in &subprocess.env {
            let field = format!("subprocess.env.{}", var.name);
            match &var.value {
                EnvValue::Literal(text) => {
                    if text.contains('\0') {
                        return Err(ArgvError::NulByte { field });
                    }
                    self.env.set(&var.name, text, Shown::Value);
                }
                EnvValue::Param(param) => {
                    let Some(argument) = validated
                        .arguments
                        .iter()
                        .find(|argument| &argument.name == param)
                    else {
                        continue;
                    };
                    let mut words = words_of(param, &argument.value)?;
                    if words.len() > 1 {
                        return Err(ArgvError::EnvNotScalar {
                            name: param.clone(),
                            variable: var.name.clone(),
                            count: words.len(),
                        });
                    }
                    let Some(value) = words.pop() else { continue };
                    if value.contains('\0') {
                        return Err(ArgvError::NulByte {
                            field: format!("`{param}`"),
                        });
                    }
                    let shown = if argument.sensitive {
                        Shown::Redacted
                    } else {
                        Shown::Value
                    };
                    self.env.set(&var.name, value, shown);
                }
            }
        }
        Ok(())
    }

    /// The child's environment.
    pub fn env(&self) -> &ChildEnv {
        &self.env
    }

    /// Sets a variable aigent itself gives the child (the trace id).
    pub fn set_env(&mut self, name: &str, value: &str) {
        self.env.set(name, value, Shown::Aigent);
    }

    /// An argv from literal words, none of them sensitive, with the base
    /// environment.
    pub fn from_words(words: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let words: Vec<String> = words.into_iter().map(Into::into).collect();
        let sensitive = vec![false; words.len()];
        let program = words.first().cloned().unwrap_or_default();
        let bare = crate::contract::Subprocess::from_lists(program, Vec::new(), Vec::new());
        Self {
            words,
            sensitive,
            joined_flag: Vec::new(),
            env: ChildEnv::inherited(&bare, |name| std::env::var_os(name)),
        }
    }

    fn push(&mut self, field: &str, word: String, sensitive: bool) -> Result<(), ArgvError> {
        if word.contains('\0') {
            return Err(ArgvError::NulByte {
                field: field.to_owned(),
            });
        }
        self.words.push(word);
        self.sensitive.push(sensitive);
        Ok(())
    }

    /// `FLAG=VALUE` as one word; redaction keeps the flag readable.
    fn push_joined(
        &mut self,
        field: &str,
        flag: &str,
        value: String,
        sensitive: bool,
    ) -> Result<(), ArgvError> {
        self.push(field, format!("{flag}={value}"), false)?;
        if sensitive {
            let last = self.words.len() - 1;
            self.sensitive[last] = true;
            self.joined_flag.push((last, flag.len()));
        }
        Ok(())
    }

    /// The program: the declaration's `binary`.
    pub fn program(&self) -> &str {
        self.words.first().map_or("", String::as_str)
    }

    /// Everything after the program.
    pub fn args(&self) -> &[String] {
        self.words.get(1..).unwrap_or(&[])
    }

    /// Every word, the program first. These are the real values: use
    /// [`Self::redacted`] for anything that is shown or stored.
    pub fn words(&self) -> &[String] {
        &self.words
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The words with each sensitive value replaced by `[REDACTED]`.
    pub fn redacted(&self) -> Vec<String> {
        self.words
            .iter()
            .zip(&self.sensitive)
            .enumerate()
            .map(|(index, (word, sensitive))| {
                if !*sensitive {
                    return word.clone();
                }
                match self.joined_flag.iter().find(|(at, _)| *at == index) {
                    Some((_, flag_len)) => format!("{}={REDACTED}", &word[..*flag_len]),
                    None => REDACTED.to_owned(),
                }
            })
            .collect()
    }

    /// The redacted words quoted the way a POSIX shell would read them back,
    /// for people to look at. It is never run: aigent passes the words
    /// themselves.
    pub fn display(&self) -> String {
        let mut out = String::new();
        for (index, word) in self.redacted().iter().enumerate() {
            if index > 0 {
                out.push(' ');
            }
            out.push_str(&shell_quote(word));
        }
        out
    }
}

/// The argv words of one validated value.
fn words_of(name: &str, value: &ArgValue) -> Result<Vec<String>, ArgvError> {
    match value {
        ArgValue::String(text) => Ok(vec![text.clone()]),
        ArgValue::Integer(number) => Ok(vec![number.to_string()]),
        ArgValue::Number(number) => Ok(vec![number.as_str().to_owned()]),
        ArgValue::Boolean(flag) => Ok(vec![flag.to_string()]),
        ArgValue::Array(items) => Ok(items.clone()),
        ArgValue::List(items) => {
            let mut words = Vec::with_capacity(items.len());
            for item in items {
                words.extend(words_of(name, item)?);
            }
            Ok(words)
        }
        // A null (allowed by the schema) is no value at all.
        ArgValue::Json(Value::Null) => Ok(Vec::new()),
        ArgValue::Json(Value::Array(_)) => Err(ArgvError::Unsupported {
            name: name.to_owned(),
            kind: "an array holding objects, arrays or nulls",
        }),
        ArgValue::Json(other) => Err(ArgvError::Unsupported {
            name: name.to_owned(),
            kind: crate::guard::json_kind(other),
        }),
    }
}

/// POSIX shell quoting for display (see [`crate::shell::quote_word`], the
/// one quoter).
pub use crate::shell::quote_word as shell_quote;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::{Origin, SourceFormat};
    use crate::guard::{self, RawArguments};
    use crate::registry::parse_declaration;

    fn declaration(text: &str) -> Declaration {
        // The argv does not depend on the level; the lint requires one.
        let text = if text.contains("danger_level") {
            text.to_owned()
        } else {
            format!("danger_level: mutating\n{}", text.trim_start_matches('\n'))
        };
        let parsed = parse_declaration(&text, SourceFormat::Yaml, &Origin::default());
        assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
        parsed.declaration.unwrap()
    }

    fn argv_for(declaration: &Declaration, tail: &[&str]) -> Result<Argv, ArgvError> {
        let tail: Vec<String> = tail.iter().map(|word| (*word).to_owned()).collect();
        let validated = guard::check(declaration, &RawArguments::from_tail(&tail)).unwrap();
        Argv::build(declaration, &validated)
    }

    const TOOL: &str = r"
name: tool
description: A test tool
parameters:
  first: {type: string, required: true}
  count: {type: integer}
  ratio: {type: number}
  force: {type: boolean}
  tags: {type: array}
  mode: {type: enum, enum_values: [fast, slow], default: slow}
  token: {type: string, sensitive: true}
subprocess:
  binary: tool
  hardcoded_args: [run, --]
  user_controlled_args: [tags, first, count, ratio, force, mode, token]
";

    #[test]
    fn binary_then_hardcoded_then_user_arguments_in_declared_order() {
        // A number keeps the text it was given in: `2.0` stays `2.0`.
        let tool = declaration(TOOL);
        let argv = argv_for(
            &tool,
            &[
                "--first", "a b", "--tags", "x", "--tags", "y*", "--count", "7", "--ratio", "2.0",
                "--force",
            ],
        )
        .unwrap();
        assert_eq!(
            argv.words(),
            [
                "tool", "run", "--", "x", "y*", "a b", "7", "2.0", "true", "slow"
            ]
        );
        assert_eq!(argv.program(), "tool");
        assert_eq!(argv.args()[0], "run");
    }

    #[test]
    fn absent_optional_arguments_add_nothing() {
        let tool = declaration(TOOL);
        let argv = argv_for(&tool, &["--first", "a"]).unwrap();
        assert_eq!(argv.words(), ["tool", "run", "--", "a", "slow"]);
    }

    #[test]
    fn defaults_render_as_plain_decimals() {
        let text = |value: f64| crate::guard::Decimal::from_f64(value).as_str().to_owned();
        assert_eq!(text(1.5), "1.5");
        assert_eq!(text(2.0), "2");
        assert_eq!(text(1e-4), "0.0001");
        assert_eq!(text(1e21), "1000000000000000000000");
        assert_eq!(text(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn given_numbers_keep_their_text() {
        let tool = declaration(TOOL);
        for (flag, value, word) in [
            ("--ratio", "2.50", "2.50"),
            ("--ratio", "1e3", "1e3"),
            ("--ratio", "4503599627370497.5", "4503599627370497.5"),
            ("--count", "9007199254740993", "9007199254740993"),
        ] {
            let argv = argv_for(&tool, &["--first", "a", flag, value]).unwrap();
            assert!(argv.words().contains(&word.to_owned()), "{value}: {argv:?}");
        }
        let argv = argv_for(
            &tool,
            &["--json", r#"{"first": "a", "ratio": 2.50, "count": 7}"#],
        )
        .unwrap();
        assert_eq!(argv.words()[3..6], ["a", "7", "2.50"]);
    }

    #[test]
    fn sensitive_words_are_redacted_for_display() {
        let tool = declaration(TOOL);
        let argv = argv_for(&tool, &["--first", "it's", "--token", "hunter2"]).unwrap();
        assert_eq!(argv.words().last().unwrap(), "hunter2");
        assert_eq!(argv.redacted().last().unwrap(), REDACTED);
        assert_eq!(argv.display(), r"tool run -- 'it'\''s' slow '[REDACTED]'");
        assert!(!argv.display().contains("hunter2"));
    }

    #[test]
    fn display_quoting() {
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("plain-1.2/x"), "plain-1.2/x");
        assert_eq!(shell_quote("$(touch x)"), "'$(touch x)'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("a\nb"), "'a\nb'");
        assert_eq!(shell_quote("bell\u{7}"), "'bell\u{7}'");
    }

    #[test]
    fn input_schema_values() {
        let schema_tool = declaration(
            r#"
name: mcp
description: An MCP tool
input_schema:
  type: object
  properties:
    sizes: {type: array, items: {type: integer}}
    options: {properties: {a: {type: string}}}
    flag: {type: boolean}
    ratio: {type: number}
    note: {type: [string, "null"]}
  required: [note]
subprocess: {binary: t, hardcoded_args: [], user_controlled_args: [sizes, flag, ratio, note, options]}
"#,
        );
        let argv = argv_for(
            &schema_tool,
            &[
                "--json",
                r#"{"sizes": [1, 20], "flag": false, "note": "x"}"#,
            ],
        )
        .unwrap();
        assert_eq!(argv.words(), ["t", "1", "20", "false", "x"]);
        // Numbers keep their text; a null the schema allows adds no word.
        let argv = argv_for(
            &schema_tool,
            &[
                "--json",
                r#"{"sizes": [18446744073709551615, 1e3], "ratio": 1.50, "note": null}"#,
            ],
        )
        .unwrap();
        assert_eq!(argv.words(), ["t", "18446744073709551615", "1e3", "1.50"]);
        let argv = argv_for(
            &schema_tool,
            &["--sizes", "18446744073709551615", "--note", "y"],
        )
        .unwrap();
        assert_eq!(argv.words(), ["t", "18446744073709551615", "y"]);
        let refused = argv_for(
            &schema_tool,
            &["--json", r#"{"options": {"a": "b"}, "note": "x"}"#],
        );
        assert!(
            matches!(refused, Err(ArgvError::Unsupported { .. })),
            "{refused:?}"
        );
    }

    #[test]
    fn no_subprocess_is_an_error() {
        let bare = declaration("name: bare\ndescription: d\nparameters: {}\n");
        let validated = guard::check(&bare, &RawArguments::Flags(&[])).unwrap();
        assert!(matches!(
            Argv::build(&bare, &validated),
            Err(ArgvError::NoSubprocess { .. })
        ));
    }

    const GIT_LOG: &str = r#"
name: log
description: git log through a template
parameters:
  count: {type: integer}
  author: {type: string}
  merges: {type: boolean}
  paths: {type: array}
  token: {type: string, sensitive: true}
subprocess:
  binary: git
  argv:
    - log
    - --oneline
    - {param: count, flag: -n}
    - {param: author, flag: --author, form: joined}
    - {param: merges, flag: --merges}
    - {param: token, flag: --token, form: joined}
    - "--"
    - {param: paths}
"#;

    #[test]
    fn template_slots_expand_by_form() {
        let log = declaration(GIT_LOG);
        // Absent parameters add nothing, flags included.
        let argv = argv_for(&log, &[]).unwrap();
        assert_eq!(argv.words(), ["git", "log", "--oneline", "--"]);
        // Present: flag and value, the joined form, a switch, `--` kept.
        let argv = argv_for(
            &log,
            &[
                "--count", "5", "--author", "-Ann", "--merges", "--paths", "a", "--paths", "b c",
            ],
        )
        .unwrap();
        assert_eq!(
            argv.words(),
            [
                "git",
                "log",
                "--oneline",
                "-n",
                "5",
                "--author=-Ann",
                "--merges",
                "--",
                "a",
                "b c"
            ]
        );
        // Glued to its flag, `-Ann` cannot be read as an option; a value
        // that stands as its own word still can, `--` or not.
        let tail: Vec<String> = ["--paths", "-x"].map(str::to_owned).to_vec();
        let rejection = guard::check(&log, &RawArguments::from_tail(&tail)).unwrap_err();
        assert_eq!(rejection.violations[0].rule, guard::Rule::OptionInjection);
        // A false switch adds nothing.
        let argv = argv_for(&log, &["--merges=false"]).unwrap();
        assert_eq!(argv.words(), ["git", "log", "--oneline", "--"]);
    }

    #[test]
    fn an_array_repeats_its_flag() {
        let curl = declaration(
            r#"
name: fetch
description: curl with headers
parameters:
  header: {type: array}
  url: {type: string, required: true, pattern_type: url}
subprocess:
  binary: curl
  argv: [-sS, {param: header, flag: -H}, "--", {param: url}]
"#,
        );
        let argv = argv_for(
            &curl,
            &[
                "--header",
                "A: 1",
                "--header",
                "B: 2",
                "--url",
                "https://x.test/",
            ],
        )
        .unwrap();
        assert_eq!(
            argv.words(),
            [
                "curl",
                "-sS",
                "-H",
                "A: 1",
                "-H",
                "B: 2",
                "--",
                "https://x.test/"
            ]
        );
    }

    #[test]
    fn a_prefix_is_glued_to_each_value() {
        let set_image = declaration(
            r#"
name: set-image
description: kubectl set image
parameters:
  version: {type: string, required: true, pattern_type: semver}
subprocess:
  binary: kubectl
  argv: [set, image, deployment/web, {param: version, prefix: "web=registry.example.com/web:"}]
"#,
        );
        let argv = argv_for(&set_image, &["--version", "1.2.3"]).unwrap();
        assert_eq!(
            argv.words(),
            [
                "kubectl",
                "set",
                "image",
                "deployment/web",
                "web=registry.example.com/web:1.2.3"
            ]
        );
    }

    #[test]
    fn a_sensitive_joined_value_is_redacted_behind_its_flag() {
        let log = declaration(GIT_LOG);
        let argv = argv_for(&log, &["--token", "s3cret"]).unwrap();
        assert_eq!(argv.words()[3], "--token=s3cret");
        assert_eq!(argv.redacted()[3], "--token=[REDACTED]");
        assert!(!argv.display().contains("s3cret"));
    }

    #[test]
    fn the_legacy_form_is_literals_then_parameters() {
        let tool = declaration(TOOL);
        let subprocess = tool.subprocess.as_ref().unwrap();
        assert!(!subprocess.templated);
        assert_eq!(subprocess.hardcoded_args, ["run", "--"]);
        assert_eq!(subprocess.argv.len(), 2 + 7);
        let log = declaration(GIT_LOG);
        let subprocess = log.subprocess.as_ref().unwrap();
        assert!(subprocess.templated);
        // REQ-C-019 fields are derived from the template.
        assert_eq!(subprocess.hardcoded_args, ["log", "--oneline", "--"]);
        assert_eq!(
            subprocess.user_controlled_args,
            ["count", "author", "merges", "token", "paths"]
        );
    }
}
