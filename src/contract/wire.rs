//! The wire format of a declaration (DESIGN.md §4): what `schema show
//! --output json` prints, with the derived `effective_sandbox`. Kept apart
//! from `declaration` so that the sandbox, which reads declarations, is
//! not also read by them.

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::declaration::{Declaration, ExitCode, Inputs, Parameter, PathRoot};

// The wire format (DESIGN.md §4): what `schema show --output json` prints,
// and what loads back into an equal declaration.

impl Serialize for Declaration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("name", &self.name)?;
        out.serialize_entry("description", &self.description)?;
        if let Some(level) = self.danger_level {
            out.serialize_entry("danger_level", &level)?;
        }
        if let Some(class) = self.class {
            out.serialize_entry("class", &class)?;
        }
        // Derived, for agents and clients that read the wire format only.
        out.serialize_entry("requires_confirmation", &self.requires_confirmation())?;
        if let Some(timeout) = self.timeout {
            out.serialize_entry("timeout_s", &timeout.as_secs_f64())?;
        }
        if self.long_running {
            out.serialize_entry("long_running", &true)?;
        }
        match &self.inputs {
            Inputs::Parameters(parameters) => {
                out.serialize_entry("parameters", &ParameterMap(parameters))?;
            }
            Inputs::InputSchema(schema) => out.serialize_entry("input_schema", &schema.written)?,
        }
        if let Some(subprocess) = &self.subprocess {
            out.serialize_entry("subprocess", subprocess)?;
        }
        out.serialize_entry("success_exit_codes", &self.success_exit_codes)?;
        out.serialize_entry("exit_codes", &ExitCodeMap(&self.exit_codes))?;
        if let Some(sandbox) = &self.sandbox {
            out.serialize_entry("sandbox", sandbox)?;
        }
        // Derived, like `requires_confirmation`: what a run enforces.
        if self.subprocess.is_some() {
            out.serialize_entry(
                "effective_sandbox",
                &super::sandbox::EffectiveSandbox::of(self),
            )?;
        }
        out.end()
    }
}

struct ParameterMap<'a>(&'a [Parameter]);

impl Serialize for ParameterMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.0.len()))?;
        for parameter in self.0 {
            out.serialize_entry(&parameter.name, &ParameterBody(parameter))?;
        }
        out.end()
    }
}

struct ParameterBody<'a>(&'a Parameter);

impl Serialize for ParameterBody<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let parameter = self.0;
        let mut out = serializer.serialize_map(None)?;
        out.serialize_entry("type", parameter.kind.as_str())?;
        out.serialize_entry("required", &parameter.required)?;
        if let Some(description) = &parameter.description {
            out.serialize_entry("description", description)?;
        }
        if let Some(pattern) = &parameter.pattern {
            out.serialize_entry("pattern", pattern.as_str())?;
        }
        if let Some(pattern_type) = parameter.pattern_type {
            out.serialize_entry("pattern_type", pattern_type.as_str())?;
        }
        if let Some(dialect) = parameter.regex_dialect {
            out.serialize_entry("regex_dialect", dialect.as_str())?;
        }
        if !parameter.enum_values.is_empty() {
            out.serialize_entry("enum_values", &parameter.enum_values)?;
        }
        for (kind, bound) in parameter.bounds.each() {
            out.serialize_entry(kind.keyword(), &bound.number)?;
        }
        if let Some(default) = &parameter.default {
            out.serialize_entry("default", default)?;
        }
        if parameter.sensitive {
            out.serialize_entry("sensitive", &true)?;
        }
        if parameter.allow_leading_dash {
            out.serialize_entry("allow_leading_dash", &true)?;
        }
        let confinement = &parameter.confinement;
        if confinement.relative_only {
            out.serialize_entry("relative_only", &true)?;
        }
        if !confinement.under.is_empty() {
            let roots: Vec<String> = confinement.under.iter().map(PathRoot::to_text).collect();
            out.serialize_entry("under", &roots)?;
        }
        if confinement.must_exist {
            out.serialize_entry("must_exist", &true)?;
        }
        out.end()
    }
}

struct ExitCodeMap<'a>(&'a [ExitCode]);

impl Serialize for ExitCodeMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.0.len()))?;
        for exit_code in self.0 {
            out.serialize_entry(&exit_code.code.to_string(), &ExitCodeBody(exit_code))?;
        }
        out.end()
    }
}

struct ExitCodeBody<'a>(&'a ExitCode);

impl Serialize for ExitCodeBody<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let exit_code = self.0;
        let fields = if exit_code.description.is_some() {
            4
        } else {
            3
        };
        let mut out = serializer.serialize_struct("ExitCode", fields)?;
        out.serialize_field("name", &exit_code.name)?;
        if let Some(description) = &exit_code.description {
            out.serialize_field("description", description)?;
        }
        out.serialize_field("retryable", &exit_code.retryable)?;
        out.serialize_field("side_effects", &exit_code.side_effects)?;
        out.end()
    }
}

/// The wire format as a JSON value.
pub fn to_wire(declaration: &Declaration) -> Value {
    serde_json::to_value(declaration).unwrap_or_else(|_| Value::Object(Map::new()))
}
