//! A declaration's `sandbox` section: what the command may read, write and
//! reach over the network once it runs (issue #22). This is the vocabulary
//! (`mod.rs`), reading it from a file (`parse.rs`) and its cross-field lint
//! (`lint.rs`); `crate::exec::sandbox` resolves it against one run's
//! arguments and enforces it in the child.
//!
//! A grant names a path in one of these forms:
//! - an absolute path, `/etc/ssl`;
//! - `$CWD`, `$PROJECT`, `$HOME` or `$TMP`, optionally followed by
//!   `/more/path`: aigent's working directory, the project it is in (the
//!   nearest directory up that holds `.git`, else the working directory),
//!   its `HOME`, and the run's private temporary directory (made for the
//!   run, removed after it, and the child's `TMPDIR`);
//! - `{param}`: the checked value of a path parameter (`pattern_type:
//!   filepath`), resolved against the working directory.
//!
//! What a declaration leaves out comes from its danger level (see
//! [`EffectiveSandbox::of`]).

mod lint;
mod parse;
pub(super) mod spec;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use strum::{EnumString, IntoStaticStr, VariantArray};

use std::collections::BTreeMap;

use super::declaration::{DangerLevel, Declaration, Inputs, PathRoot, PatternType, ValueClass};

pub use lint::CHECKS as LINT_CHECKS;
pub use parse::read_sandbox;
pub use spec::{Base, Limit, Limits, LimitsSpec, Network, PathGrant, SandboxSpec};

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
    /// For each `{param}` grant whose parameter is confined (see
    /// [`bound_of`]), the directories its path must lie in; a resolved
    /// path outside them is not granted.
    pub bounds: BTreeMap<String, Vec<PathRoot>>,
    /// Pathname UNIX sockets it may connect to, beside those under its
    /// read and write grants.
    pub sockets: Vec<PathGrant>,
    pub limits: Limits,
    /// Descriptors above 2 passed on (when aigent inherited them).
    pub pass_fds: Vec<i32>,
    /// A pty of aigent's for a terminal.
    pub interactive: bool,
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
        let mut sandbox = Self {
            read: spec.read,
            write,
            network: spec.network.unwrap_or(Network::None),
            declared: declaration.sandbox.is_some(),
            bounds: BTreeMap::new(),
            sockets: spec.sockets.unwrap_or_default(),
            limits: Limits::of(spec.limits.as_ref()),
            pass_fds: spec.pass_fds.unwrap_or_default(),
            interactive: spec.interactive.unwrap_or(false),
        };
        let bounds = sandbox
            .params()
            .filter_map(|name| Some((name.to_owned(), bound_of(declaration, name)?)))
            .collect();
        sandbox.bounds = bounds;
        sandbox
    }

    /// Every parameter a grant takes its path from.
    pub fn params(&self) -> impl Iterator<Item = &str> {
        self.read
            .iter()
            .flatten()
            .chain(&self.write)
            .chain(&self.sockets)
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

/// Where the path parameter `name` is confined to (#20's confined paths),
/// if anywhere: its `under` roots; else, for `relative_only`, `$CWD`
/// (a relative path has no `..`, the `filepath` rules refuse it, but a
/// symbolic link below `$CWD` could still lead out, so the bound is
/// checked on the resolved path at run time). `None`: it may point
/// anywhere.
pub fn bound_of(declaration: &Declaration, name: &str) -> Option<Vec<PathRoot>> {
    let confinement = declaration.confinement(name)?;
    if !confinement.under.is_empty() {
        Some(confinement.under.clone())
    } else if confinement.relative_only {
        Some(vec![PathRoot::Cwd])
    } else {
        None
    }
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
        let mut out = serializer.serialize_map(None)?;
        match &self.read {
            Some(read) => out.serialize_entry("read", read)?,
            None => out.serialize_entry("read", "unrestricted")?,
        }
        out.serialize_entry("write", &self.write)?;
        out.serialize_entry("network", &self.network)?;
        if !self.sockets.is_empty() {
            out.serialize_entry("sockets", &self.sockets)?;
        }
        out.serialize_entry("limits", &self.limits)?;
        if !self.pass_fds.is_empty() {
            out.serialize_entry("pass_fds", &self.pass_fds)?;
        }
        if self.interactive {
            out.serialize_entry("interactive", &true)?;
        }
        out.serialize_entry(
            "derived_from",
            if self.declared {
                "declaration"
            } else {
                "danger_level"
            },
        )?;
        if !self.bounds.is_empty() {
            let bounded: BTreeMap<String, Vec<String>> = self
                .bounds
                .iter()
                .map(|(name, roots)| {
                    (
                        format!("{{{name}}}"),
                        roots.iter().map(PathRoot::to_text).collect(),
                    )
                })
                .collect();
            out.serialize_entry("bounded", &bounded)?;
        }
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
            "$PROJECT",
            "$PROJECT/target",
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
