//! From observed command lines to a declaration: the lines read into
//! options and operands (with what the registry's declarations of the same
//! program know about each option), grouped by program, subcommand and
//! option set, and each value given the tightest check that fits every
//! value seen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value, json};

use crate::bridge::import::choices_pattern;
use crate::contract::programs::syntax::GIT_GLOBAL_VALUED;
use crate::contract::{ArgvPart, Declaration, ParamType, Syntax};

/// At most this many distinct values seen more than once make an enum.
const MAX_ENUM_VALUES: usize = 4;

/// At most this many distinct values make a pattern of exactly those
/// values, where no wider type fits all of them.
const MAX_LISTED_VALUES: usize = 8;

/// The words of one operand or option value that name nothing wider.
const WORD_PATTERN: &str = r"^[A-Za-z0-9_@%+=:,.][A-Za-z0-9_@%+=:,./-]{0,255}$";

static SEMVER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$",
    )
    .expect("a valid pattern")
});
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$")
        .expect("a valid pattern")
});
static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(WORD_PATTERN).expect("a valid pattern"));

/// What the registry knows of one option of a program.
#[derive(Debug, Clone)]
pub(super) struct KnownOption {
    pub param: String,
    pub flag: String,
    pub aliases: Vec<String>,
    pub valued: bool,
    pub attached_only: bool,
}

/// The options the registry's declarations of one program declare, by
/// every name they go by.
#[derive(Debug, Default)]
pub(super) struct Knowledge {
    options: BTreeMap<String, KnownOption>,
    /// The subcommand words the declarations start with (`["stash", "list"]`).
    pub paths: BTreeSet<Vec<String>>,
}

impl Knowledge {
    pub fn of<'a>(declarations: impl IntoIterator<Item = &'a Declaration>) -> Self {
        let mut knowledge = Self::default();
        for declaration in declarations {
            let Some(subprocess) = &declaration.subprocess else {
                continue;
            };
            knowledge.paths.insert(leading_words(declaration));
            for part in &subprocess.argv {
                let ArgvPart::Param(slot) = part else {
                    continue;
                };
                let Some(flag) = &slot.flag else { continue };
                let valued = declaration
                    .parameter(&slot.param)
                    .is_some_and(|parameter| parameter.kind != ParamType::Boolean);
                let known = KnownOption {
                    param: slot.param.clone(),
                    flag: flag.clone(),
                    aliases: slot.aliases.clone(),
                    valued,
                    attached_only: slot.attached_only,
                };
                for name in std::iter::once(flag).chain(&slot.aliases) {
                    knowledge
                        .options
                        .entry(name.clone())
                        .or_insert_with(|| known.clone());
                }
            }
        }
        knowledge.paths.remove(&Vec::new());
        knowledge
    }

    /// With the options of `program` that name code or configuration
    /// (`make -C DIR`) known to take a value, so that a line's value is
    /// read as one and can be written as fixed words.
    pub fn with_code_options(mut self, program: &str) -> Self {
        for option in crate::contract::programs::code_words::code_options(program) {
            self.options
                .entry(option.to_owned())
                .or_insert_with(|| KnownOption {
                    param: parameter_name(option),
                    flag: option.to_owned(),
                    aliases: Vec::new(),
                    valued: true,
                    attached_only: false,
                });
        }
        self
    }

    /// The same options, with the subcommands `paths` as well.
    pub fn with_paths(mut self, paths: &BTreeSet<Vec<String>>) -> Self {
        self.paths.extend(paths.iter().cloned());
        self
    }

    pub fn option(&self, name: &str) -> Option<&KnownOption> {
        self.options.get(name)
    }

    /// Whether `name` (with `=VALUE` cut off) is declared.
    pub fn declares(&self, name: &str) -> bool {
        self.options.contains_key(name)
    }
}

/// The literal words a declaration's template starts with, options and
/// option slots before them skipped (`git --no-pager log` gives `log`).
pub(super) fn leading_words(declaration: &Declaration) -> Vec<String> {
    let Some(subprocess) = &declaration.subprocess else {
        return Vec::new();
    };
    let mut words = Vec::new();
    for part in &subprocess.argv {
        match part {
            ArgvPart::Literal(word) if word == "--" => break,
            ArgvPart::Literal(word) if word.starts_with('-') => {
                if !words.is_empty() {
                    break;
                }
            }
            ArgvPart::Literal(word) => words.push(word.clone()),
            ArgvPart::Param(slot) if slot.flag.is_some() && words.is_empty() => {}
            ArgvPart::Param(_) => break,
        }
    }
    words
}

/// One option as a line used it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OptionUse {
    /// The option's name as the template will write it (`--stat`, `-n`).
    pub flag: String,
    pub value: Option<String>,
    /// The value was attached with `=`.
    pub joined: bool,
    /// Before the subcommand (git's own options).
    pub global: bool,
}

/// A line read into its parts.
#[derive(Debug, Clone)]
pub(super) struct Reading {
    pub path: Vec<String>,
    pub options: Vec<OptionUse>,
    pub operands: Vec<String>,
    /// Operands after the line's `--`.
    pub after_end: Vec<String>,
    /// For a program matched word for word (`syntax: exact`): the option
    /// names in the order written, which a template must keep.
    pub order: Vec<String>,
}

impl Reading {
    /// The grouping key: the subcommand and the set of option names (in
    /// order for an exact syntax).
    pub fn key(&self, exact: bool) -> (Vec<String>, Vec<String>) {
        let names: Vec<String> = if exact {
            self.order.clone()
        } else {
            let set: BTreeSet<String> = self
                .options
                .iter()
                .map(|option| option.flag.clone())
                .collect();
            set.into_iter().collect()
        };
        (self.path.clone(), names)
    }
}

fn is_option(word: &str) -> bool {
    word.len() > 1 && word.starts_with('-')
}

/// Whether `word` can be a subcommand word of a program the registry does
/// not know: a lower-case name.
fn command_like(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|first| first.is_ascii_lowercase())
        && word.len() <= 40
        && chars.all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-')
}

/// Reads the words after the program.
pub(super) fn read(words: &[String], syntax: Syntax, knowledge: &Knowledge) -> Reading {
    let mut reading = Reading {
        path: Vec::new(),
        options: Vec::new(),
        operands: Vec::new(),
        after_end: Vec::new(),
        order: Vec::new(),
    };
    let mut at = 0;
    // git's own options, before the subcommand.
    if syntax == Syntax::Git {
        while let Some(word) = words.get(at)
            && is_option(word)
            && word != "--"
        {
            at += 1;
            let (name, attached) = match word.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (name, Some(value)),
                _ => (word.as_str(), None),
            };
            let value = if attached.is_some() {
                attached.map(str::to_owned)
            } else if GIT_GLOBAL_VALUED.contains(&name) {
                at += 1;
                words.get(at - 1).cloned()
            } else {
                None
            };
            reading.order.push(name.to_owned());
            reading.options.push(OptionUse {
                flag: name.to_owned(),
                value,
                joined: attached.is_some(),
                global: true,
            });
        }
    }
    // The subcommand: the longest run of words a declaration of the
    // program starts with; else, for a program with subcommands or one the
    // registry does not know, its first word when it looks like one.
    let rest: Vec<&str> = words[at..].iter().map(String::as_str).collect();
    let declared = knowledge
        .paths
        .iter()
        .filter(|path| path.len() <= rest.len() && path.iter().zip(&rest).all(|(a, b)| a == b))
        .max_by_key(|path| path.len());
    let known_program = !knowledge.options.is_empty() || !knowledge.paths.is_empty();
    if let Some(path) = declared {
        reading.path = path.clone();
    } else if !knowledge.paths.is_empty() || !known_program {
        // Command-like words while what is taken so far begins a declared
        // subcommand (`gh pr create` beside `gh pr list`), then one more;
        // as many as most of the program's declared subcommands have
        // (`gh label create`: `gh pr list`, `gh issue view`, ... have two).
        let mut depths: BTreeMap<usize, usize> = BTreeMap::new();
        for path in &knowledge.paths {
            *depths.entry(path.len()).or_default() += 1;
        }
        let shortest = depths
            .iter()
            .max_by_key(|(depth, count)| (**count, **depth))
            .map_or(1, |(depth, _)| *depth);
        for word in rest.iter().take_while(|word| command_like(word)) {
            reading.path.push((*word).to_owned());
            let deeper = knowledge
                .paths
                .iter()
                .any(|path| path.len() > reading.path.len() && path.starts_with(&reading.path));
            if !deeper && reading.path.len() >= shortest {
                break;
            }
        }
    }
    at += reading.path.len();
    let permutes = matches!(syntax, Syntax::Gnu | Syntax::Git);
    let bundles = matches!(syntax, Syntax::Gnu | Syntax::Git | Syntax::Posix);
    let mut ended = false;
    let mut operand_seen = false;
    while at < words.len() {
        let word = &words[at];
        at += 1;
        if ended {
            reading.after_end.push(word.clone());
            continue;
        }
        if word == "--" {
            ended = true;
            continue;
        }
        let options_still = syntax != Syntax::Exact && (permutes || !operand_seen);
        let exact_option = syntax == Syntax::Exact && is_option(word);
        let option = exact_option || (options_still && is_option(word));
        if !option {
            operand_seen = true;
            reading.operands.push(word.clone());
            continue;
        }
        let next = words
            .get(at)
            .filter(|next| !is_option(next) && *next != "--");
        let used = read_option(word, next, syntax, bundles, knowledge);
        let taken = used.iter().any(|(_, took_next)| *took_next);
        if taken {
            at += 1;
        }
        for (option, _) in used {
            reading.order.push(option.flag.clone());
            reading.options.push(option);
        }
    }
    reading
}

/// One option word (and the next word, when it is the option's value):
/// each option it stands for, and whether it took the next word.
fn read_option(
    word: &str,
    next: Option<&String>,
    syntax: Syntax,
    bundles: bool,
    knowledge: &Knowledge,
) -> Vec<(OptionUse, bool)> {
    let plain = |flag: &str, value: Option<String>, joined: bool, took: bool| {
        (
            OptionUse {
                flag: flag.to_owned(),
                value,
                joined,
                global: false,
            },
            took,
        )
    };
    if syntax == Syntax::Exact {
        // Word for word: an option and, when the next word is no option,
        // its value; the template keeps both in place.
        return vec![match next {
            Some(value) => plain(word, Some(value.clone()), false, true),
            None => plain(word, None, false, false),
        }];
    }
    if let Some(known) = knowledge.option(word) {
        let flag = known.flag.as_str();
        if known.valued && !known.attached_only {
            return vec![plain(flag, next.cloned(), false, next.is_some())];
        }
        return vec![plain(flag, None, false, false)];
    }
    if let Some(digits) = word.strip_prefix('-')
        && !digits.is_empty()
        && digits.bytes().all(|byte| byte.is_ascii_digit())
        && let Some(known) = knowledge.option(crate::exec::argv_grammar::NUMBER_ALIAS)
    {
        return vec![plain(&known.flag, Some(digits.to_owned()), false, false)];
    }
    let long = word.starts_with("--") || !bundles;
    if long {
        if let Some((name, value)) = word.split_once('=') {
            let flag = knowledge
                .option(name)
                .map_or(name, |known| known.flag.as_str());
            return vec![plain(flag, Some(value.to_owned()), true, false)];
        }
        return vec![plain(word, None, false, false)];
    }
    if word.len() == 2 {
        return vec![plain(word, None, false, false)];
    }
    // A cluster of short options (`-la`, `-n3`): each letter its own
    // option, a valued one taking the rest of the word.
    let mut used = Vec::new();
    for (index, letter) in word.char_indices().skip(1) {
        let name = format!("-{letter}");
        match knowledge.option(&name) {
            Some(known) if known.valued => {
                let rest = &word[index + letter.len_utf8()..];
                if rest.is_empty() {
                    used.push(plain(&known.flag, next.cloned(), false, next.is_some()));
                } else {
                    used.push(plain(&known.flag, Some(rest.to_owned()), false, false));
                }
                return used;
            }
            Some(known) => used.push(plain(&known.flag, None, false, false)),
            None => used.push(plain(&name, None, false, false)),
        }
    }
    used
}

/// Where the values were seen, for the path checks.
#[derive(Debug, Clone, Copy)]
pub(super) enum Place<'a> {
    /// The directory the command ran in, when known: a path is held to it.
    Known(Option<&'a Path>),
    /// After a `cd` in the line: the hook knows no one directory to hold a
    /// path to, so a path is held to the values seen.
    Unknown,
}

/// The checks for a set of values: a JSON parameter's fields (`type` and
/// the rest), for one value (`array` false) or each item of a list.
pub(super) fn value_check(values: &[String], place: Place<'_>, array: bool) -> Map<String, Value> {
    let distinct: BTreeSet<&str> = values.iter().map(String::as_str).collect();
    let (confinable, cwd) = match place {
        Place::Known(cwd) => (true, cwd),
        Place::Unknown => (false, None),
    };
    let mut fields = Map::new();
    let kind = |scalar: &'static str| if array { "array" } else { scalar };
    let listed = |fields: &mut Map<String, Value>| {
        let choices: Vec<String> = distinct.iter().map(|value| (*value).to_owned()).collect();
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern".into(), json!(choices_pattern(&choices)));
    };
    let all =
        |test: &dyn Fn(&str) -> bool| !distinct.is_empty() && distinct.iter().all(|v| test(v));
    if all(&|value| {
        value
            .parse::<i64>()
            .is_ok_and(|number| number.to_string() == value)
    }) {
        if array {
            fields.insert("type".into(), json!("array"));
            fields.insert("pattern".into(), json!("^-?(0|[1-9][0-9]{0,17})$"));
        } else {
            fields.insert("type".into(), json!("integer"));
        }
    } else if all(&|value| UUID.is_match(value)) {
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern_type".into(), json!("uuid"));
    } else if all(&|value| SEMVER.is_match(value)) {
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern_type".into(), json!("semver"));
    } else if distinct.len() <= MAX_ENUM_VALUES && values.len() > distinct.len() && !array {
        let choices: Vec<&str> = distinct.iter().copied().collect();
        fields.insert("type".into(), json!("enum"));
        fields.insert("enum_values".into(), json!(choices));
    } else if all(&relative_in_project) && distinct.iter().any(|value| value.contains(['/', '.'])) {
        if confinable {
            fields.insert("type".into(), json!(kind("string")));
            fields.insert("pattern_type".into(), json!("filepath"));
            fields.insert("relative_only".into(), json!(true));
            fields.insert("under".into(), json!(["$CWD"]));
        } else {
            // Each path exactly as seen, however many: never widened to
            // a word pattern that would admit `..`.
            listed(&mut fields);
        }
    } else if let Some(cwd) = cwd
        && all(&|value| absolute_under(value, cwd))
    {
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern_type".into(), json!("filepath"));
        fields.insert("under".into(), json!(["$CWD"]));
    } else if distinct.len() <= MAX_LISTED_VALUES {
        listed(&mut fields);
    } else if all(&|value| WORD.is_match(value)) {
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern".into(), json!(WORD_PATTERN));
    } else {
        fields.insert("type".into(), json!(kind("string")));
        fields.insert("pattern_type".into(), json!("free_text"));
    }
    if distinct.iter().any(|value| value.starts_with('-')) {
        fields.insert("allow_leading_dash".into(), json!(true));
    }
    // A listed value with spaces or shell punctuation (`--title "Fix (o1)"`)
    // is text the program reads as data: the list still holds it to the
    // values seen, and free text lets those characters through.
    if fields.contains_key("pattern")
        && !fields.contains_key("pattern_type")
        && distinct.iter().any(|value| !WORD.is_match(value))
    {
        fields.insert("pattern_type".into(), json!("free_text"));
    }
    fields
}

/// A relative path that stays in the directory it is read from: no `..`,
/// no home or absolute start, no option-like start, no control character.
fn relative_in_project(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with(['/', '~', '-', '\\'])
        && !value.chars().any(char::is_control)
        && !value.split(['/', '\\']).any(|part| part == "..")
        && WORD.is_match(value)
}

/// An absolute path inside `cwd` (read as text: no `..`).
fn absolute_under(value: &str, cwd: &Path) -> bool {
    let Some(rest) = Path::new(value).strip_prefix(cwd).ok() else {
        return false;
    };
    value.starts_with('/')
        && !value.chars().any(char::is_control)
        && !rest.components().any(|part| part.as_os_str() == "..")
}

/// A parameter name for an option not declared anywhere: its name without
/// the dashes, made of the characters a name may hold.
pub(super) fn parameter_name(flag: &str) -> String {
    let bare: String = flag
        .trim_start_matches('-')
        .chars()
        .map(|ch| {
            if ch.is_ascii_alphanumeric() || ch == '_' || ch == '-' {
                ch.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let bare = bare.trim_matches('-').to_owned();
    if bare.is_empty() || !bare.starts_with(|ch: char| ch.is_ascii_lowercase()) {
        format!(
            "option-{}",
            if bare.is_empty() {
                "x".to_owned()
            } else {
                bare
            }
        )
    } else {
        bare
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_options_operands_and_the_end_of_options() {
        let knowledge = Knowledge::default();
        let reading = read(
            &words("build --release -j 4 src -- a b"),
            Syntax::Gnu,
            &knowledge,
        );
        assert_eq!(reading.path, ["build"]);
        let flags: Vec<&str> = reading.options.iter().map(|o| o.flag.as_str()).collect();
        assert_eq!(flags, ["--release", "-j"]);
        assert_eq!(reading.operands, ["4", "src"]);
        assert_eq!(reading.after_end, ["a", "b"]);
    }

    #[test]
    fn a_known_option_takes_its_value_and_clusters_split() {
        let declaration = crate::registry::Registry::Catalog
            .load("git-log")
            .unwrap()
            .declaration;
        let knowledge = Knowledge::of([&declaration]);
        let reading = read(
            &words("--no-pager log -n 5 --stat -pi HEAD"),
            Syntax::Git,
            &knowledge,
        );
        assert_eq!(reading.path, ["log"]);
        let used: Vec<(&str, Option<&str>)> = reading
            .options
            .iter()
            .map(|o| (o.flag.as_str(), o.value.as_deref()))
            .collect();
        assert_eq!(
            used,
            [
                ("--no-pager", None),
                ("-n", Some("5")),
                ("--stat", None),
                ("-p", None),
                ("-i", None)
            ]
        );
        assert_eq!(reading.operands, ["HEAD"]);
    }

    #[test]
    fn posix_options_end_at_the_first_operand() {
        let reading = read(&words("run x --flag"), Syntax::Posix, &Knowledge::default());
        assert_eq!(reading.path, ["run"]);
        assert_eq!(reading.operands, ["x", "--flag"]);
    }

    #[test]
    fn values_get_the_tightest_check() {
        let of = |values: &[&str]| {
            let values: Vec<String> = values.iter().map(|v| (*v).to_owned()).collect();
            Value::Object(value_check(
                &values,
                Place::Known(Some(Path::new("/p"))),
                false,
            ))
        };
        assert_eq!(of(&["3", "10"])["type"], "integer");
        assert_eq!(of(&["1.2.3"])["pattern_type"], "semver");
        assert_eq!(
            of(&["0b9a4c1e-2f3d-4a5b-8c6d-7e8f9a0b1c2d"])["pattern_type"],
            "uuid"
        );
        assert_eq!(of(&["json", "json", "text"])["type"], "enum");
        let path = of(&["src/a.rs", "b.txt"]);
        assert_eq!(path["pattern_type"], "filepath");
        assert_eq!(path["relative_only"], true);
        assert_eq!(of(&["/p/src/a.rs"])["under"], json!(["$CWD"]));
        assert_eq!(of(&["../x.rs"])["pattern"], r"^(?:\.\./x\.rs)$");
        assert_eq!(of(&["main"])["pattern"], "^(?:main)$");
        let many: Vec<String> = (0..9).map(|n| format!("w{n}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(of(&many)["pattern"], WORD_PATTERN);
        let texts: Vec<String> = (0..9).map(|n| format!("a b {n}")).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert_eq!(of(&texts)["pattern_type"], "free_text");
    }

    #[test]
    fn paths_seen_after_a_cd_are_listed_not_confined() {
        let values: Vec<String> = (0..12).map(|n| format!("src/t{n}.tsx")).collect();
        let check = Value::Object(value_check(&values, Place::Unknown, true));
        assert!(check.get("pattern_type").is_none(), "{check}");
        assert!(check.get("under").is_none(), "{check}");
        let pattern = Regex::new(check["pattern"].as_str().unwrap()).unwrap();
        assert!(pattern.is_match("src/t11.tsx"));
        assert!(!pattern.is_match("../src/t1.tsx"));
        assert!(!pattern.is_match("src/t12.tsx"));
    }

    #[test]
    fn parameter_names_from_flags() {
        assert_eq!(parameter_name("--name-only"), "name-only");
        assert_eq!(parameter_name("-C"), "c");
        assert_eq!(parameter_name("-20"), "option-20");
        assert_eq!(parameter_name("--x.y"), "x-y");
    }
}
