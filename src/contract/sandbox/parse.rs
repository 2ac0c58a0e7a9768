//! Reading `sandbox` from a declaration file. Every problem is a
//! diagnostic naming its field; the checks that need the rest of the
//! declaration (does `{param}` name a path parameter?) are the lint's.

use serde_json::{Map, Value};

use super::super::codes;
use super::super::naming;
use super::{Base, Limit, LimitsSpec, Network, PathGrant, SandboxSpec};
use crate::report::Diagnostic;

const FIELDS: &[&str] = &[
    "read",
    "write",
    "network",
    "sockets",
    "limits",
    "pass_fds",
    "interactive",
];
const LIMIT_FIELDS: &[&str] = &[
    "address_space",
    "processes",
    "open_files",
    "file_size",
    "cpu_seconds",
];
/// Descriptors a declaration may pass: above the standard three, below
/// what any process commonly has open.
const PASS_FDS: std::ops::RangeInclusive<i64> = 3..=1023;
const NETWORK_FIELDS: &[&str] = &["connect", "bind"];
/// More grants than any command needs; keeps the ruleset small.
const MAX_GRANTS: usize = 64;
const MAX_PORTS: usize = 64;

/// Reads the `sandbox` section. `None` with errors when it cannot be used.
pub fn read_sandbox(value: &Value) -> (Option<SandboxSpec>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let Some(object) = value.as_object() else {
        found.push(
            Diagnostic::new(
                codes::Code::Shape,
                format!(
                    "`sandbox` must be a mapping with `read`, `write` and `network`, not {}",
                    kind(value)
                ),
            )
            .with_field("sandbox"),
        );
        return (None, found);
    };
    unknown_fields(object, "sandbox", FIELDS, &mut found);
    let read = object
        .get("read")
        .map(|value| grants(value, "sandbox.read", &mut found));
    let write = object
        .get("write")
        .map(|value| grants(value, "sandbox.write", &mut found));
    let network = object
        .get("network")
        .map(|value| network(value, &mut found));
    let sockets = object
        .get("sockets")
        .map(|value| grants(value, "sandbox.sockets", &mut found));
    let limits = object.get("limits").map(|value| limits(value, &mut found));
    let pass_fds = object
        .get("pass_fds")
        .map(|value| pass_fds(value, &mut found));
    let interactive = object.get("interactive").map(|value| match value {
        Value::Bool(on) => Some(*on),
        other => {
            found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!("`interactive` is true or false, not {}", describe(other)),
                )
                .with_field("sandbox.interactive"),
            );
            None
        }
    });
    if found.iter().any(Diagnostic::is_error) {
        return (None, found);
    }
    let spec = SandboxSpec {
        read: read.flatten(),
        write: write.flatten(),
        network: network.flatten(),
        sockets: sockets.flatten(),
        limits: limits.flatten(),
        pass_fds: pass_fds.flatten(),
        interactive: interactive.flatten(),
    };
    (Some(spec), found)
}

fn unknown_fields(
    object: &Map<String, Value>,
    prefix: &str,
    known: &[&str],
    found: &mut Vec<Diagnostic>,
) {
    for key in object.keys() {
        if !known.contains(&key.as_str()) {
            let hint = naming::closest(key, known.iter().copied())
                .map(|closest| format!("; did you mean `{closest}`?"))
                .unwrap_or_default();
            found.push(
                Diagnostic::new(
                    codes::Code::UnknownField,
                    format!("unknown field `{key}`{hint}"),
                )
                .with_field(format!("{prefix}.{key}")),
            );
        }
    }
}

fn grants(value: &Value, field: &str, found: &mut Vec<Diagnostic>) -> Option<Vec<PathGrant>> {
    let Some(items) = value.as_array() else {
        found.push(
            Diagnostic::new(
                codes::Code::Shape,
                format!("must be a list of paths, not {}", kind(value)),
            )
            .with_field(field),
        );
        return None;
    };
    if items.len() > MAX_GRANTS {
        found.push(
            Diagnostic::new(
                codes::Code::Shape,
                format!(
                    "{} paths; the limit is {MAX_GRANTS} (grant a directory above them)",
                    items.len()
                ),
            )
            .with_field(field),
        );
        return None;
    }
    let mut grants = Vec::with_capacity(items.len());
    let before = found.len();
    for (index, item) in items.iter().enumerate() {
        let item_field = format!("{field}[{index}]");
        let Some(text) = item.as_str() else {
            found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!("must be a path string, not {}", kind(item)),
                )
                .with_field(item_field),
            );
            continue;
        };
        match grant(text) {
            (Some(grant), None) => {
                if !grants.contains(&grant) {
                    grants.push(grant);
                }
            }
            (_, problem) => found.push(
                Diagnostic::new(
                    codes::Code::SandboxPathInvalid,
                    problem.unwrap_or_else(|| format!("`{text}` is not a path grant")),
                )
                .with_field(item_field),
            ),
        }
    }
    (found.len() == before).then_some(grants)
}

/// One grant from its text, or why it is not one.
pub(super) fn grant(text: &str) -> (Option<PathGrant>, Option<String>) {
    let fail = |why: String| (None, Some(why));
    if text.contains('\0') || text.chars().any(char::is_control) {
        return fail("a path grant holds a control character".to_owned());
    }
    if let Some(inner) = text.strip_prefix('{') {
        let Some(name) = inner.strip_suffix('}') else {
            return fail(format!(
                "`{text}`: a parameter is written `{{name}}`, alone, as the whole entry"
            ));
        };
        if name.is_empty() || name.contains(['{', '}', '/']) {
            return fail(format!("`{text}` does not name a parameter"));
        }
        return (Some(PathGrant::Param(name.to_owned())), None);
    }
    if text.contains(['{', '}']) {
        return fail(format!(
            "`{text}`: a parameter is written `{{name}}`, alone, as the whole entry"
        ));
    }
    let (base, rest) = if let Some(after) = text.strip_prefix('$') {
        let name_end = after.find('/').unwrap_or(after.len());
        let variable = &text[..=name_end];
        let Some((_, base)) = Base::VARIABLES.iter().find(|(known, _)| *known == variable) else {
            let known: Vec<&str> = Base::VARIABLES.iter().map(|(name, _)| *name).collect();
            return fail(format!(
                "`{variable}` is not a variable a grant can start with; use {}",
                known.join(", ")
            ));
        };
        (*base, &text[variable.len()..])
    } else if text.starts_with('/') {
        (Base::Root, text)
    } else {
        return fail(format!(
            "`{text}` is relative; start it with `/`, `$CWD`, `$PROJECT`, `$HOME` or `$TMP`"
        ));
    };
    if rest.split('/').any(|segment| segment == "..") {
        return fail(format!(
            "`{text}` has a `..` segment; name the directory itself"
        ));
    }
    if rest.contains('$') {
        return fail(format!(
            "`{text}`: only `$CWD`, `$PROJECT`, `$HOME` and `$TMP`, at the start, are expanded"
        ));
    }
    // `/a//b/` and `/a/./b` name `/a/b`; keep one spelling.
    let mut normal = String::new();
    for segment in rest.split('/').filter(|s| !s.is_empty() && *s != ".") {
        normal.push('/');
        normal.push_str(segment);
    }
    if base == Base::Root && normal.is_empty() {
        normal.push('/');
    }
    (Some(PathGrant::Path { base, rest: normal }), None)
}

fn network(value: &Value, found: &mut Vec<Diagnostic>) -> Option<Network> {
    match value {
        Value::String(text) if text == "none" => Some(Network::None),
        Value::String(text) if text == "unrestricted" => Some(Network::Unrestricted),
        Value::Object(object) => {
            unknown_fields(object, "sandbox.network", NETWORK_FIELDS, found);
            let connect = ports(object.get("connect"), "sandbox.network.connect", 1, found);
            let bind = ports(object.get("bind"), "sandbox.network.bind", 0, found);
            Some(Network::Ports {
                connect: connect?,
                bind: bind?,
            })
        }
        other => {
            found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!(
                        "`network` is `none`, `unrestricted`, or a mapping with `connect` and `bind` port lists, not {}",
                        describe(other)
                    ),
                )
                .with_field("sandbox.network"),
            );
            None
        }
    }
}

fn ports(
    value: Option<&Value>,
    field: &str,
    lowest: u16,
    found: &mut Vec<Diagnostic>,
) -> Option<Vec<u16>> {
    let Some(value) = value else {
        return Some(Vec::new());
    };
    let items = match value.as_array() {
        Some(items) if items.len() <= MAX_PORTS => items,
        Some(items) => {
            found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!("{} ports; the limit is {MAX_PORTS}", items.len()),
                )
                .with_field(field),
            );
            return None;
        }
        None => {
            found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!("must be a list of port numbers, not {}", kind(value)),
                )
                .with_field(field),
            );
            return None;
        }
    };
    let mut ports = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        match item.as_u64().and_then(|port| u16::try_from(port).ok()) {
            Some(port) if port >= lowest => {
                if !ports.contains(&port) {
                    ports.push(port);
                }
            }
            _ => {
                found.push(
                    Diagnostic::new(
                        codes::Code::Shape,
                        format!("a port is a whole number from {lowest} to 65535, not {item}"),
                    )
                    .with_field(format!("{field}[{index}]")),
                );
                return None;
            }
        }
    }
    ports.sort_unstable();
    Some(ports)
}

fn limits(value: &Value, found: &mut Vec<Diagnostic>) -> Option<LimitsSpec> {
    let Some(object) = value.as_object() else {
        found.push(
            Diagnostic::new(
                codes::Code::Shape,
                format!(
                    "`limits` is a mapping of {}, not {}",
                    LIMIT_FIELDS.join(", "),
                    kind(value)
                ),
            )
            .with_field("sandbox.limits"),
        );
        return None;
    };
    unknown_fields(object, "sandbox.limits", LIMIT_FIELDS, found);
    let before = found.len();
    let mut spec = LimitsSpec::default();
    for (name, value) in object {
        let field = format!("sandbox.limits.{name}");
        let (slot, sized, lowest) = match name.as_str() {
            "address_space" => (&mut spec.address_space, true, 16 << 20),
            "processes" => (&mut spec.processes, false, 1),
            "open_files" => (&mut spec.open_files, false, 16),
            "file_size" => (&mut spec.file_size, true, 1),
            "cpu_seconds" => (&mut spec.cpu_seconds, false, 1),
            _ => continue,
        };
        match limit(value, sized) {
            Ok(Limit::At(number)) if number < lowest => found.push(
                Diagnostic::new(
                    codes::Code::Shape,
                    format!("{number} is below the least useful value, {lowest}"),
                )
                .with_field(field),
            ),
            Ok(parsed) => *slot = Some(parsed),
            Err(why) => found.push(Diagnostic::new(codes::Code::Shape, why).with_field(field)),
        }
    }
    (found.len() == before).then_some(spec)
}

/// A limit: `unlimited`, a whole number, or (for sizes) a whole number
/// with a binary unit (`512MiB`, `8GiB`).
pub(super) fn limit(value: &Value, sized: bool) -> Result<Limit, String> {
    let expected = if sized {
        "a number of bytes (`8GiB`, `512MiB`, or a whole number) or `unlimited`"
    } else {
        "a whole number or `unlimited`"
    };
    match value {
        Value::Number(number) => number
            .as_u64()
            .map(Limit::At)
            .ok_or_else(|| format!("{expected}, not {number}")),
        Value::String(text) if text == "unlimited" => Ok(Limit::Unlimited),
        Value::String(text) if sized => {
            let digits = text.trim_end_matches(|ch: char| ch.is_ascii_alphabetic());
            let unit = &text[digits.len()..];
            let scale: u64 = match unit {
                "" | "B" => 1,
                "KiB" => 1 << 10,
                "MiB" => 1 << 20,
                "GiB" => 1 << 30,
                "TiB" => 1 << 40,
                _ => {
                    return Err(format!(
                        "{expected}, not `{text}` (units: B, KiB, MiB, GiB, TiB)"
                    ));
                }
            };
            digits
                .parse::<u64>()
                .ok()
                .and_then(|number| number.checked_mul(scale))
                .map(Limit::At)
                .ok_or_else(|| format!("{expected}, not `{text}`"))
        }
        other => Err(format!("{expected}, not {}", describe(other))),
    }
}

fn pass_fds(value: &Value, found: &mut Vec<Diagnostic>) -> Option<Vec<i32>> {
    let field = "sandbox.pass_fds";
    let Some(items) = value.as_array().filter(|items| items.len() <= 64) else {
        found.push(
            Diagnostic::new(
                codes::Code::Shape,
                format!(
                    "must be a list of at most 64 descriptor numbers, not {}",
                    kind(value)
                ),
            )
            .with_field(field),
        );
        return None;
    };
    let mut fds = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match item.as_i64().filter(|fd| PASS_FDS.contains(fd)) {
            Some(fd) => {
                let fd = i32::try_from(fd).unwrap_or(i32::MAX);
                if !fds.contains(&fd) {
                    fds.push(fd);
                }
            }
            None => {
                found.push(
                    Diagnostic::new(
                        codes::Code::Shape,
                        format!(
                            "a descriptor is a whole number from {} to {} (0, 1 and 2 always pass), not {item}",
                            PASS_FDS.start(),
                            PASS_FDS.end()
                        ),
                    )
                    .with_field(format!("{field}[{index}]")),
                );
                return None;
            }
        }
    }
    fds.sort_unstable();
    Some(fds)
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::String(text) => format!("`{text}`"),
        other => kind(other).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes_of(value: Value) -> Vec<(String, String)> {
        read_sandbox(&value)
            .1
            .into_iter()
            .map(|d| (d.code.to_owned(), d.field.unwrap_or_default()))
            .collect()
    }

    #[test]
    fn a_whole_section_reads() {
        let (spec, found) = read_sandbox(&json!({
            "read": ["$CWD", "{config}", "/etc/ssl/", "$HOME/.gitconfig"],
            "write": ["$TMP/out", "/var//tmp/./x"],
            "network": {"connect": [443, 80, 443]}
        }));
        assert!(found.is_empty(), "{found:?}");
        let spec = spec.unwrap();
        let shown: Vec<String> = spec.read.unwrap().iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["$CWD", "{config}", "/etc/ssl", "$HOME/.gitconfig"]);
        let shown: Vec<String> = spec
            .write
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(shown, ["$TMP/out", "/var/tmp/x"]);
        assert_eq!(
            spec.network,
            Some(Network::Ports {
                connect: vec![80, 443],
                bind: vec![]
            })
        );
    }

    #[test]
    fn network_words() {
        for (text, network) in [
            ("none", Network::None),
            ("unrestricted", Network::Unrestricted),
        ] {
            let (spec, _) = read_sandbox(&json!({ "network": text }));
            assert_eq!(spec.unwrap().network, Some(network));
        }
        assert_eq!(
            codes_of(json!({"network": "all"})),
            [("E103".to_owned(), "sandbox.network".to_owned())]
        );
        assert_eq!(
            codes_of(json!({"network": {"connect": [0]}})),
            [("E103".to_owned(), "sandbox.network.connect[0]".to_owned())]
        );
        assert_eq!(
            codes_of(json!({"network": {"connect": [70000]}})),
            [("E103".to_owned(), "sandbox.network.connect[0]".to_owned())]
        );
        let (spec, found) = read_sandbox(&json!({"network": {"bind": [0]}}));
        assert!(found.is_empty());
        assert_eq!(
            spec.unwrap().network,
            Some(Network::Ports {
                connect: vec![],
                bind: vec![0]
            })
        );
    }

    #[test]
    fn bad_grants_name_their_field() {
        for bad in [
            "relative/path",
            "~/.ssh",
            "$PWD",
            "$CWD/../up",
            "$PROJECT/../up",
            "$PROJECTS",
            "$project",
            "/a/../b",
            "{}",
            "{a}/b",
            "x{a}",
            "/a/$HOME",
            "/a\u{7}",
        ] {
            assert_eq!(
                codes_of(json!({ "write": [bad] })),
                [("E140".to_owned(), "sandbox.write[0]".to_owned())],
                "{bad}"
            );
        }
        assert_eq!(
            codes_of(json!({"reed": []})),
            [("E104".to_owned(), "sandbox.reed".to_owned())]
        );
        assert_eq!(
            codes_of(json!({"read": "/etc"})),
            [("E103".to_owned(), "sandbox.read".to_owned())]
        );
        assert_eq!(
            codes_of(json!(["/etc"])),
            [("E103".to_owned(), "sandbox".to_owned())]
        );
    }

    #[test]
    fn limits_sockets_descriptors_and_a_terminal_read() {
        let (spec, found) = read_sandbox(&json!({
            "sockets": ["/run/docker.sock", "$TMP/agent.sock"],
            "limits": {"address_space": "2GiB", "processes": 64, "file_size": "unlimited", "cpu_seconds": 30},
            "pass_fds": [5, 3, 5],
            "interactive": true
        }));
        assert!(found.is_empty(), "{found:?}");
        let spec = spec.unwrap();
        let shown: Vec<String> = spec
            .sockets
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(shown, ["/run/docker.sock", "$TMP/agent.sock"]);
        let limits = spec.limits.unwrap();
        assert_eq!(limits.address_space, Some(Limit::At(2 << 30)));
        assert_eq!(limits.processes, Some(Limit::At(64)));
        assert_eq!(limits.file_size, Some(Limit::Unlimited));
        assert_eq!(limits.open_files, None);
        assert_eq!(spec.pass_fds, Some(vec![3, 5]));
        assert_eq!(spec.interactive, Some(true));
    }

    #[test]
    fn bad_limits_and_descriptors_name_their_field() {
        for (value, field) in [
            (
                json!({"limits": {"processes": "many"}}),
                "sandbox.limits.processes",
            ),
            (
                json!({"limits": {"processes": 0}}),
                "sandbox.limits.processes",
            ),
            (
                json!({"limits": {"address_space": "8GB"}}),
                "sandbox.limits.address_space",
            ),
            (
                json!({"limits": {"address_space": "99999999999TiB"}}),
                "sandbox.limits.address_space",
            ),
            (
                json!({"limits": {"cpu_seconds": -1}}),
                "sandbox.limits.cpu_seconds",
            ),
            (
                json!({"limits": {"open_files": "4KiB"}}),
                "sandbox.limits.open_files",
            ),
            (json!({"limits": 5}), "sandbox.limits"),
            (json!({"pass_fds": [2]}), "sandbox.pass_fds[0]"),
            (json!({"pass_fds": [4096]}), "sandbox.pass_fds[0]"),
            (json!({"pass_fds": "3"}), "sandbox.pass_fds"),
            (json!({"interactive": "yes"}), "sandbox.interactive"),
            (json!({"sockets": ["relative.sock"]}), "sandbox.sockets[0]"),
        ] {
            let codes = codes_of(value.clone());
            assert_eq!(codes.len(), 1, "{value}: {codes:?}");
            assert_eq!(codes[0].1, field, "{value}: {codes:?}");
        }
        assert_eq!(
            codes_of(json!({"limits": {"memory": 5}})),
            [("E104".to_owned(), "sandbox.limits.memory".to_owned())]
        );
    }

    #[test]
    fn the_root_and_dots_normalise() {
        assert_eq!(grant("/").0, Some(PathGrant::root("/")));
        assert_eq!(grant("$CWD/.").0, Some(PathGrant::at(Base::Cwd)));
        assert_eq!(grant("$PROJECT/").0, Some(PathGrant::at(Base::Project)));
        assert_eq!(
            grant("$PROJECT//target/./debug").0,
            Some(PathGrant::Path {
                base: Base::Project,
                rest: "/target/debug".to_owned()
            })
        );
    }
}
