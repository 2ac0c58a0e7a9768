//! A declaration's `sandbox` section: what the command may read, write and
//! reach over the network once it runs (issue #22). This is the vocabulary
//! (`mod.rs`), reading it from a file (`parse.rs`) and its cross-field lint
//! (`lint.rs`); `crate::exec::sandbox` resolves it against one run's
//! arguments and enforces it in the child.
//!
//! A grant names a path in one of these forms:
//! - an absolute path, `/etc/ssl`;
//! - `$CWD`, `$HOME` or `$TMP`, optionally followed by `/more/path`:
//!   aigent's working directory, its `HOME`, and the run's private
//!   temporary directory (made for the run, removed after it, and the
//!   child's `TMPDIR`);
//! - `{param}`: the checked value of a path parameter (`pattern_type:
//!   filepath`), resolved against the working directory.
//!
//! What a declaration leaves out comes from its danger level (see
//! [`EffectiveSandbox::of`]).

mod lint;
mod parse;

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use strum::{EnumString, IntoStaticStr, VariantArray};

use super::declaration::{DangerLevel, Declaration, Inputs, PatternType, ValueClass};

pub use lint::CHECKS as LINT_CHECKS;
pub use parse::read_sandbox;

/// The `sandbox` section as the file wrote it. A list left out is `None`
/// and takes its default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSpec {
    pub read: Option<Vec<PathGrant>>,
    pub write: Option<Vec<PathGrant>>,
    pub network: Option<Network>,
}

/// Where a grant's path starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    /// An absolute path.
    Root,
    /// `$CWD`: aigent's working directory, which the child inherits.
    Cwd,
    /// `$HOME`: aigent's `HOME`.
    Home,
    /// `$TMP`: the run's private temporary directory.
    Tmp,
}

impl Base {
    pub const VARIABLES: &[(&str, Base)] = &[
        ("$CWD", Base::Cwd),
        ("$HOME", Base::Home),
        ("$TMP", Base::Tmp),
    ];

    fn variable(self) -> Option<&'static str> {
        Self::VARIABLES
            .iter()
            .find(|(_, base)| *base == self)
            .map(|(name, _)| *name)
    }
}

/// One path a sandbox grants.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PathGrant {
    /// `base` then `rest` (`rest` is empty or starts with `/`; for
    /// [`Base::Root`] it is the whole absolute path).
    Path { base: Base, rest: String },
    /// `{param}`: the parameter's checked value.
    Param(String),
}

impl PathGrant {
    pub fn root(path: &str) -> Self {
        Self::Path {
            base: Base::Root,
            rest: path.to_owned(),
        }
    }

    pub fn at(base: Base) -> Self {
        Self::Path {
            base,
            rest: String::new(),
        }
    }

    /// The parameter this grant takes its path from, if any.
    pub fn param(&self) -> Option<&str> {
        match self {
            Self::Param(name) => Some(name),
            Self::Path { .. } => None,
        }
    }
}

impl fmt::Display for PathGrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Param(name) => write!(f, "{{{name}}}"),
            Self::Path { base, rest } => match base.variable() {
                Some(variable) => write!(f, "{variable}{rest}"),
                None => f.write_str(rest),
            },
        }
    }
}

impl Serialize for PathGrant {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// What the command may reach over the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    /// No TCP, UDP or raw sockets at all (the default).
    None,
    /// TCP `connect` only to these ports and `bind` only to these; UDP is
    /// not restricted (Landlock's network rules cover TCP).
    Ports { connect: Vec<u16>, bind: Vec<u16> },
    /// No network restriction.
    Unrestricted,
}

impl Serialize for Network {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::None => serializer.serialize_str("none"),
            Self::Unrestricted => serializer.serialize_str("unrestricted"),
            Self::Ports { connect, bind } => {
                let mut out = serializer.serialize_map(Some(2))?;
                out.serialize_entry("connect", connect)?;
                out.serialize_entry("bind", bind)?;
                out.end()
            }
        }
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ports = |ports: &[u16]| {
            if ports.is_empty() {
                "none".to_owned()
            } else {
                ports
                    .iter()
                    .map(u16::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        match self {
            Self::None => f.write_str("none"),
            Self::Unrestricted => f.write_str("unrestricted"),
            Self::Ports { connect, bind } => write!(
                f,
                "TCP connect to {}; TCP bind to {}",
                ports(connect),
                ports(bind)
            ),
        }
    }
}

impl Serialize for SandboxSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        if let Some(read) = &self.read {
            out.serialize_entry("read", read)?;
        }
        if let Some(write) = &self.write {
            out.serialize_entry("write", write)?;
        }
        if let Some(network) = &self.network {
            out.serialize_entry("network", network)?;
        }
        out.end()
    }
}

/// The sandbox a command gets: its declared section with every gap filled
/// from the danger level.
///
/// - `read`: unrestricted unless declared; a declared list is added to the
///   system's runtime (see `crate::exec::sandbox`).
/// - `write`: the declared list; without one, a `safe` command writes
///   nothing, and a `mutating` or `destructive` one writes `$CWD` and the
///   paths its path parameters name. `/dev/null` and `$TMP` are always
///   granted.
/// - `network`: `none` unless declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EffectiveSandbox {
    /// `None`: reads are not restricted.
    pub read: Option<Vec<PathGrant>>,
    pub write: Vec<PathGrant>,
    pub network: Network,
    /// Whether the declaration has a `sandbox` section (else every part
    /// is a default).
    pub declared: bool,
}

impl EffectiveSandbox {
    /// The paths every sandbox may write: the bit bucket and the run's own
    /// temporary directory.
    pub fn always_writable() -> [PathGrant; 2] {
        [PathGrant::root("/dev/null"), PathGrant::at(Base::Tmp)]
    }

    pub fn of(declaration: &Declaration) -> Self {
        let spec = declaration.sandbox.clone().unwrap_or_default();
        let mut write = match spec.write {
            Some(write) => write,
            None => default_writes(declaration),
        };
        for always in Self::always_writable() {
            if !write.contains(&always) {
                write.push(always);
            }
        }
        Self {
            read: spec.read,
            write,
            network: spec.network.unwrap_or(Network::None),
            declared: declaration.sandbox.is_some(),
        }
    }

    /// Every parameter a grant takes its path from.
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.read
            .iter()
            .flatten()
            .chain(&self.write)
            .filter_map(PathGrant::param)
    }
}

/// Without a `write` list: nothing for a `safe` command; `$CWD` and every
/// path parameter for one that changes things.
fn default_writes(declaration: &Declaration) -> Vec<PathGrant> {
    if declaration.danger_level == Some(DangerLevel::Safe) {
        return Vec::new();
    }
    std::iter::once(PathGrant::at(Base::Cwd))
        .chain(
            path_inputs(declaration)
                .into_iter()
                .map(|name| PathGrant::Param(name.to_owned())),
        )
        .collect()
}

/// Whether the input `name` holds a path (`pattern_type: filepath`, or
/// `x-aigent-pattern-type: filepath` in an `input_schema`), alone or as
/// the items of an array.
pub fn is_path_input(declaration: &Declaration, name: &str) -> bool {
    match &declaration.inputs {
        Inputs::Parameters(_) => declaration
            .parameter(name)
            .is_some_and(|parameter| parameter.pattern_type == Some(PatternType::Filepath)),
        Inputs::InputSchema(schema) => schema.guarded(name).is_some_and(|property| {
            property.item_guard().class == ValueClass::Typed(PatternType::Filepath)
        }),
    }
}

/// The path inputs that reach the subprocess, in declared order.
pub fn path_inputs(declaration: &Declaration) -> Vec<&str> {
    declaration
        .input_names()
        .into_iter()
        .filter(|name| is_path_input(declaration, name) && declaration.is_user_controlled(name))
        .collect()
}

impl Serialize for EffectiveSandbox {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(4))?;
        match &self.read {
            Some(read) => out.serialize_entry("read", read)?,
            None => out.serialize_entry("read", "unrestricted")?,
        }
        out.serialize_entry("write", &self.write)?;
        out.serialize_entry("network", &self.network)?;
        out.serialize_entry(
            "derived_from",
            if self.declared {
                "declaration"
            } else {
                "danger_level"
            },
        )?;
        out.end()
    }
}

/// How strictly a run enforces its sandbox: `--sandbox`, else
/// `[sandbox] mode` in `aigent.toml`, else best-effort.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Deserialize,
    Serialize,
    IntoStaticStr,
    EnumString,
    VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum SandboxMode {
    /// Nothing runs unless the kernel enforces all of it.
    Require,
    /// Enforce what the kernel can, and say in the warnings what it could
    /// not.
    #[default]
    BestEffort,
    /// No sandbox.
    Off,
}

impl SandboxMode {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_print_as_written() {
        for text in [
            "/etc/ssl",
            "$CWD",
            "$CWD/build",
            "$HOME/.gitconfig",
            "$TMP",
            "{path}",
        ] {
            let (grant, problem) = parse::grant(text);
            assert_eq!(problem, None, "{text}");
            assert_eq!(grant.unwrap().to_string(), text);
        }
    }

    #[test]
    fn modes_parse_back() {
        for &mode in SandboxMode::VARIANTS {
            assert_eq!(SandboxMode::parse(mode.as_str()), Some(mode));
            assert_eq!(
                serde_json::to_value(mode).unwrap(),
                serde_json::Value::from(mode.as_str())
            );
        }
        assert_eq!(SandboxMode::BestEffort.as_str(), "best-effort");
        assert_eq!(SandboxMode::default(), SandboxMode::BestEffort);
    }
}
