//! The sandbox's cross-field checks: grants that name real path
//! parameters, and the warnings that make an author say what a command
//! writes.

use super::super::codes;
use super::super::declaration::{DangerLevel, Declaration};
use super::super::lint::LintContext;
use super::{EffectiveSandbox, PathGrant, bound_of, is_path_input, path_inputs};
use crate::report::Diagnostic;

/// The sandbox's checks, run after the rest of the lint.
pub const CHECKS: &[super::super::lint::Check] = &[
    grants_name_path_parameters,
    destructive_has_a_sandbox,
    outside_writes_are_declared,
    safe_commands_write_nothing,
];

fn grants_name_path_parameters(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(spec) = &declaration.sandbox else {
        return Vec::new();
    };
    let inputs = declaration.input_names();
    let mut found = Vec::new();
    for (list, grants) in [
        ("read", &spec.read),
        ("write", &spec.write),
        ("sockets", &spec.sockets),
    ] {
        for (index, grant) in grants.iter().flatten().enumerate() {
            let Some(name) = grant.param() else { continue };
            let field = format!("sandbox.{list}[{index}]");
            let message = if !inputs.contains(&name) {
                let hint = super::super::naming::closest(name, inputs.iter().copied())
                    .map(|closest| format!("; did you mean `{{{closest}}}`?"))
                    .unwrap_or_default();
                format!("`{{{name}}}` names no parameter{hint}")
            } else if !is_path_input(declaration, name) {
                format!(
                    "`{name}` is not a path parameter; a grant takes its path from a parameter with `pattern_type: filepath` (`x-aigent-pattern-type` in an input_schema)"
                )
            } else {
                continue;
            };
            found
                .push(Diagnostic::new(codes::Code::SandboxParamInvalid, message).with_field(field));
        }
    }
    found
}

fn destructive_has_a_sandbox(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    if declaration.danger_level != Some(DangerLevel::Destructive)
        || declaration.subprocess.is_none()
        || declaration.sandbox.is_some()
    {
        return Vec::new();
    }
    let effective = EffectiveSandbox::of(declaration);
    let writes: Vec<String> = effective.write.iter().map(ToString::to_string).collect();
    vec![
        Diagnostic::new(
            codes::Code::DestructiveUnsandboxed,
            format!(
                "a destructive command has no `sandbox` section, so it runs with the defaults (reads unrestricted, writes to {}, no network); declare what it reads, writes and reaches",
                writes.join(", ")
            ),
        )
        .with_field("sandbox"),
    ]
}

/// Without a `write` list, a command that changes things may write
/// wherever its path parameters point, including outside the project.
fn outside_writes_are_declared(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let writes_declared = declaration
        .sandbox
        .as_ref()
        .is_some_and(|spec| spec.write.is_some());
    if writes_declared
        || declaration.danger_level == Some(DangerLevel::Safe)
        || declaration.subprocess.is_none()
    {
        return Vec::new();
    }
    // A parameter confined with `under` or `relative_only` can only point
    // inside its roots (checked again on the resolved path when the
    // sandbox is built), so it says where it writes.
    path_inputs(declaration)
        .into_iter()
        .filter(|name| bound_of(declaration, name).is_none())
        .map(|name| {
            Diagnostic::new(
                codes::Code::WritesUndeclared,
                format!(
                    "without `sandbox.write`, the command may write wherever `{name}` points, outside the project too; say so with `write: [\"$CWD\", \"{{{name}}}\"]`, or grant less"
                ),
            )
            .with_field("sandbox.write")
        })
        .collect()
}

fn safe_commands_write_nothing(declaration: &Declaration, _: &LintContext<'_>) -> Vec<Diagnostic> {
    let Some(write) = declaration
        .sandbox
        .as_ref()
        .and_then(|spec| spec.write.as_ref())
    else {
        return Vec::new();
    };
    if declaration.danger_level != Some(DangerLevel::Safe) {
        return Vec::new();
    }
    let always = EffectiveSandbox::always_writable();
    write
        .iter()
        .enumerate()
        .filter(|(_, grant)| !always.contains(grant))
        .map(|(index, grant): (usize, &PathGrant)| {
            Diagnostic::new(
                codes::Code::SafeCommandWrites,
                format!(
                    "the command is `safe` but may write `{grant}`; a command that writes is `mutating`, or drop the grant"
                ),
            )
            .with_field(format!("sandbox.write[{index}]"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::lint::lint_declaration;
    use super::*;
    use crate::contract::sandbox::{Base, Network};

    fn parse(text: &str) -> (Option<Declaration>, Vec<(String, String)>) {
        let parsed = crate::contract::read_declaration(
            text,
            crate::contract::SourceFormat::Yaml,
            &crate::contract::Origin::default(),
        );
        let mut diagnostics = parsed.diagnostics.clone();
        if let Some(declaration) = &parsed.declaration {
            diagnostics.extend(lint_declaration(declaration, &LintContext::default()));
        }
        let found = diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.field.clone().unwrap_or_default()))
            .collect();
        (parsed.declaration, found)
    }

    fn copy(level: &str, sandbox: &str) -> String {
        format!(
            "name: cp\ndescription: copy\ndanger_level: {level}\nparameters:\n  src: {{type: string, pattern_type: filepath}}\n  dst: {{type: string, pattern_type: filepath}}\n  mode: {{type: string, pattern: '^[0-7]{{3}}$'}}\nsubprocess: {{binary: cp, argv: [{{param: mode, flag: --mode}}, '--', {{param: src}}, {{param: dst}}]}}\n{sandbox}"
        )
    }

    fn pair(code: impl std::fmt::Display, field: &str) -> (String, String) {
        (code.to_string(), field.to_owned())
    }

    #[test]
    fn params_in_grants_must_be_path_parameters() {
        let (_, found) = parse(&copy(
            "mutating",
            "sandbox: {read: ['{src}', '{srcc}'], write: ['{dst}', '{mode}']}",
        ));
        assert_eq!(
            found,
            [
                pair("E141", "sandbox.read[1]"),
                pair("E141", "sandbox.write[1]")
            ]
        );
    }

    #[test]
    fn defaults_follow_the_danger_level() {
        let (declaration, found) = parse(&copy("mutating", ""));
        assert_eq!(
            found,
            [pair("W141", "sandbox.write"), pair("W141", "sandbox.write")]
        );
        let effective = EffectiveSandbox::of(&declaration.unwrap());
        assert_eq!(effective.read, None);
        assert_eq!(
            effective.write,
            [
                PathGrant::at(Base::Cwd),
                PathGrant::Param("src".into()),
                PathGrant::Param("dst".into()),
                PathGrant::root("/dev/null"),
                PathGrant::at(Base::Tmp),
            ]
        );
        assert_eq!(effective.network, Network::None);
        assert!(!effective.declared);

        let (declaration, found) = parse(&copy("safe", ""));
        assert!(found.is_empty(), "{found:?}");
        let effective = EffectiveSandbox::of(&declaration.unwrap());
        assert_eq!(
            effective.write,
            [PathGrant::root("/dev/null"), PathGrant::at(Base::Tmp)]
        );

        let (_, found) = parse(&copy("destructive", ""));
        assert_eq!(
            found,
            [
                pair("W140", "sandbox"),
                pair("W141", "sandbox.write"),
                pair("W141", "sandbox.write")
            ]
        );
        let (_, found) = parse(&copy(
            "destructive",
            "sandbox: {read: ['{src}'], write: ['{dst}']}",
        ));
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn a_confined_path_parameter_says_where_it_writes() {
        // `dst` is confined (`under`, or `relative_only`): no W141 for it,
        // and the effective sandbox shows its bound; `src` is not.
        for (confinement, roots) in [
            (
                "under: [$CWD, /srv/data]",
                serde_json::json!(["$CWD", "/srv/data"]),
            ),
            ("relative_only: true", serde_json::json!(["$CWD"])),
            ("under: ['{src}']", serde_json::json!(["{src}"])),
        ] {
            let text = copy("mutating", "").replace(
                "dst: {type: string, pattern_type: filepath}",
                &format!("dst: {{type: string, pattern_type: filepath, {confinement}}}"),
            );
            let (declaration, found) = parse(&text);
            assert_eq!(found, [pair("W141", "sandbox.write")], "{confinement}");
            let declaration = declaration.unwrap();
            let wire = crate::contract::to_wire(&declaration);
            assert_eq!(
                wire["effective_sandbox"]["bounded"],
                serde_json::json!({ "{dst}": roots }),
                "{confinement}"
            );
            // The wire format, bound included, reads back.
            let back = crate::contract::read_value(&wire, &crate::contract::Origin::default());
            assert!(!back.has_errors(), "{:?}", back.diagnostics);
        }
        // Unconfined: nothing bounded, and no `bounded` key at all.
        let (declaration, _) = parse(&copy("mutating", ""));
        let wire = crate::contract::to_wire(&declaration.unwrap());
        assert!(wire["effective_sandbox"].get("bounded").is_none());
    }

    #[test]
    fn a_safe_command_that_writes_is_told() {
        let (_, found) = parse(&copy("safe", "sandbox: {write: ['$TMP', '{dst}']}"));
        assert_eq!(found, [pair("W142", "sandbox.write[1]")]);
    }

    #[test]
    fn the_wire_format_round_trips_with_the_effective_sandbox() {
        let (declaration, _) = parse(&copy(
            "mutating",
            "sandbox: {write: ['$CWD', '{dst}'], network: {connect: [443]}}",
        ));
        let declaration = declaration.unwrap();
        let wire = crate::contract::to_wire(&declaration);
        assert_eq!(
            wire["effective_sandbox"],
            serde_json::json!({
                "read": "unrestricted",
                "write": ["$CWD", "{dst}", "/dev/null", "$TMP"],
                "network": {"connect": [443], "bind": []},
                "limits": {
                    "address_space": 8u64 << 30,
                    "processes": 2048,
                    "open_files": 8192,
                    "file_size": 16u64 << 30,
                    "cpu_seconds": 3600,
                },
                "derived_from": "declaration",
            })
        );
        let back = crate::contract::read_value(&wire, &crate::contract::Origin::default());
        assert!(!back.has_errors(), "{:?}", back.diagnostics);
        assert_eq!(back.declaration.unwrap(), declaration);

        let mut tampered = wire.clone();
        tampered["effective_sandbox"]["network"] = "unrestricted".into();
        let back = crate::contract::read_value(&tampered, &crate::contract::Origin::default());
        assert!(back.has_errors());
    }
}
