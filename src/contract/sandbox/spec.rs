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
    /// Pathname UNIX sockets the command may connect to (`docker.sock`,
    /// an ssh-agent's), beside those under its read and write grants.
    pub sockets: Option<Vec<PathGrant>>,
    pub limits: Option<LimitsSpec>,
    /// Descriptors above 2 that aigent passes on, when it inherited them.
    pub pass_fds: Option<Vec<i32>>,
    /// The command needs a terminal: it gets a pty of aigent's.
    pub interactive: Option<bool>,
}

/// One resource limit: a number (bytes, processes, descriptors, seconds),
/// or no limit beyond what aigent itself has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    At(u64),
    Unlimited,
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::At(value) => serializer.serialize_u64(*value),
            Self::Unlimited => serializer.serialize_str("unlimited"),
        }
    }
}

/// The resource limits a declaration sets; a limit left out takes its
/// default ([`Limits::DEFAULT`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LimitsSpec {
    pub address_space: Option<Limit>,
    pub processes: Option<Limit>,
    pub open_files: Option<Limit>,
    pub file_size: Option<Limit>,
    pub cpu_seconds: Option<Limit>,
}

/// The limits a run gets, each process of it: the declared ones, the
/// defaults for the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// Bytes of address space (`RLIMIT_AS`): a 10 GB allocation fails.
    pub address_space: Limit,
    /// Processes and threads of the run together (`RLIMIT_NPROC` in the
    /// run's user namespace, or a pids cgroup): a fork bomb stops there.
    pub processes: Limit,
    /// Open descriptors (`RLIMIT_NOFILE`).
    pub open_files: Limit,
    /// Bytes of one file written (`RLIMIT_FSIZE`).
    pub file_size: Limit,
    /// Seconds of CPU time (`RLIMIT_CPU`).
    pub cpu_seconds: Limit,
}

impl Limits {
    pub const DEFAULT: Self = Self {
        address_space: Limit::At(8 << 30),
        processes: Limit::At(2048),
        open_files: Limit::At(8192),
        file_size: Limit::At(16 << 30),
        cpu_seconds: Limit::At(3600),
    };

    /// `spec`'s limits, with the defaults for those it leaves out.
    pub fn of(spec: Option<&LimitsSpec>) -> Self {
        let spec = spec.cloned().unwrap_or_default();
        let default = Self::DEFAULT;
        Self {
            address_space: spec.address_space.unwrap_or(default.address_space),
            processes: spec.processes.unwrap_or(default.processes),
            open_files: spec.open_files.unwrap_or(default.open_files),
            file_size: spec.file_size.unwrap_or(default.file_size),
            cpu_seconds: spec.cpu_seconds.unwrap_or(default.cpu_seconds),
        }
    }
}

/// Where a grant's path starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    /// An absolute path.
    Root,
    /// `$CWD`: aigent's working directory, which the child inherits.
    Cwd,
    /// `$PROJECT`: the project the run happens in: the nearest directory
    /// at or above the working directory that holds `.git`
    /// (`crate::fsutil::project`), else the working directory; never `/`,
    /// the home directory or a directory above it.
    Project,
    /// `$HOME`: aigent's `HOME`.
    Home,
    /// `$TMP`: the run's private temporary directory.
    Tmp,
}

impl Base {
    pub const VARIABLES: &[(&str, Base)] = &[
        ("$CWD", Base::Cwd),
        ("$PROJECT", Base::Project),
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
        if let Some(sockets) = &self.sockets {
            out.serialize_entry("sockets", sockets)?;
        }
        if let Some(limits) = &self.limits {
            out.serialize_entry("limits", limits)?;
        }
        if let Some(pass_fds) = &self.pass_fds {
            out.serialize_entry("pass_fds", pass_fds)?;
        }
        if let Some(interactive) = self.interactive {
            out.serialize_entry("interactive", &interactive)?;
        }
        out.end()
    }
}

impl Serialize for LimitsSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        for (name, limit) in [
            ("address_space", self.address_space),
            ("processes", self.processes),
            ("open_files", self.open_files),
            ("file_size", self.file_size),
            ("cpu_seconds", self.cpu_seconds),
        ] {
            if let Some(limit) = limit {
                out.serialize_entry(name, &limit)?;
            }
        }
        out.end()
    }
}
