//! Choosing the output format and whether to colour, as pure functions so
//! the binary's terminal checks stay at the edge.

/// How a command renders its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum OutputFormat {
    /// For people: compiler-style lines and tables.
    Text,
    /// For programs: exactly one envelope document on stdout.
    Json,
    /// A command's JSON Schema, bare (usable as an MCP `inputSchema`).
    JsonSchema,
    /// GitHub Actions workflow commands.
    Github,
    /// A SARIF 2.1.0 log for code scanning.
    Sarif,
}

impl OutputFormat {
    pub fn is_json(self) -> bool {
        self == OutputFormat::Json
    }

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// The format to use: an explicit choice (flag or `AIGENT_FORMAT`) wins,
/// otherwise text on a terminal and json everywhere else, so an agent
/// reading a pipe gets structure without asking for it.
pub fn resolve_format(explicit: Option<OutputFormat>, stdout_is_terminal: bool) -> OutputFormat {
    match explicit {
        Some(format) => format,
        None if stdout_is_terminal => OutputFormat::Text,
        None => OutputFormat::Json,
    }
}

/// Whether to emit ANSI colour. `always` and `never` are absolute; `auto`
/// colours a terminal unless `NO_COLOR` is set to a non-empty value
/// (no-color.org).
pub fn resolve_color(choice: ColorChoice, no_color: Option<&str>, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && no_color.is_none_or(str::is_empty),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_defaults_follow_the_terminal() {
        assert_eq!(resolve_format(None, true), OutputFormat::Text);
        assert_eq!(resolve_format(None, false), OutputFormat::Json);
        assert_eq!(
            resolve_format(Some(OutputFormat::Json), true),
            OutputFormat::Json
        );
        assert_eq!(
            resolve_format(Some(OutputFormat::Text), false),
            OutputFormat::Text
        );
    }

    #[test]
    fn no_color_only_affects_auto() {
        assert!(resolve_color(ColorChoice::Auto, None, true));
        assert!(!resolve_color(ColorChoice::Auto, Some("1"), true));
        assert!(resolve_color(ColorChoice::Auto, Some(""), true));
        assert!(!resolve_color(ColorChoice::Auto, None, false));
        assert!(resolve_color(ColorChoice::Always, Some("1"), false));
        assert!(!resolve_color(ColorChoice::Never, None, true));
    }
}
