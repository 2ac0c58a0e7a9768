//! Declared defaults, checked the way the guard checks a given value.

use super::{Violation, check_default, check_schema_default};
use crate::contract::{Declaration, Inputs, codes};
use crate::report::Diagnostic;

/// The registration check that needs the guard: a `default` that the
/// parameter's own checks would reject is an error, because it reaches the
/// argv without an agent ever sending it.
pub fn default_diagnostics(declaration: &Declaration) -> Vec<Diagnostic> {
    let mut found: Vec<(String, &serde_json::Value, Vec<Violation>)> = Vec::new();
    match &declaration.inputs {
        Inputs::Parameters(parameters) => {
            for parameter in parameters {
                if let Some(default) = &parameter.default {
                    found.push((
                        format!("parameters.{}.default", parameter.name),
                        default,
                        check_default(declaration, parameter, default),
                    ));
                }
            }
        }
        // A default fills in for an absent property and reaches the argv,
        // so it gets the schema's checks and the guard's rules too.
        Inputs::InputSchema(schema) => {
            for (name, property) in schema.properties() {
                if let Some(default) = property.get("default").filter(|value| !value.is_null()) {
                    found.push((
                        format!("input_schema.properties.{name}.default"),
                        default,
                        check_schema_default(declaration, name, default),
                    ));
                }
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(field, default, violations)| {
            let first = violations.into_iter().next()?;
            Some(
                Diagnostic::new(
                    codes::Code::DefaultInvalid,
                    format!(
                        "the default {default} is rejected by the parameter's own checks ({}): {}",
                        first.rule.as_str(),
                        first.message
                    ),
                )
                .with_field(field),
            )
        })
        .collect()
}
