//! The `sandbox` section's data, as a declaration holds it. It imports
//! nothing from the rest of the contract, so that `declaration` can hold it
//! while the sandbox's own logic reads declarations.

use std::fmt;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

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
