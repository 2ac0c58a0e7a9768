//! Text rendering of a Phase 1 result for people.

use super::{ArgValue, REDACTED, ValidatedArguments, ValueSource};
use crate::report::Style;

/// `args check` when the arguments pass: one line per argument, sensitive
/// values hidden.
pub fn render_accepted(validated: &ValidatedArguments, style: Style) -> String {
    let mut out = format!(
        "{} `{}`: the arguments pass Phase 1\n",
        style.success("ok"),
        validated.command
    );
    let width = validated
        .arguments
        .iter()
        .map(|argument| argument.name.len())
        .max()
        .unwrap_or(0);
    for argument in &validated.arguments {
        let shown = match &argument.value {
            _ if argument.sensitive => REDACTED.to_owned(),
            // The digits as given, not as a float would print them.
            ArgValue::Number(number) => number.as_str().to_owned(),
            value => value.to_json().to_string(),
        };
        let note = match argument.source {
            ValueSource::Given => String::new(),
            ValueSource::Default => format!(" {}", style.dim("(default)")),
        };
        out.push_str(&format!("  {:width$}  {shown}{note}\n", argument.name));
    }
    out
}
