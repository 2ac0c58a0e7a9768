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
    /// For programs reading line by line: a listing's items one JSON
    /// object a line, then a summary line; any other result's envelope on
    /// one line.
    Jsonl,
    /// For shell pipelines: a listing as tab-separated rows under a
    /// header.
    Tsv,
    /// For people and logs: a listing's items one line each, no header,
    /// no colour, no table; any other result as text without colour.
    Plain,
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

    /// The line format it is, for `jsonl`, `tsv` and `plain`.
    pub fn line_format(self) -> Option<super::rows::LineFormat> {
        use super::rows::LineFormat;
        match self {
            OutputFormat::Jsonl => Some(LineFormat::Jsonl),
            OutputFormat::Tsv => Some(LineFormat::Tsv),
            OutputFormat::Plain => Some(LineFormat::Plain),
            _ => None,
        }
    }
}

/// What the environment says about where output goes, read once at the
/// edge (CLI Agent Spec REQ-F-003, REQ-F-008): a terminal a harness
/// allocated for an agent, a CI job or a person who asked for no colour
/// looks like any other terminal otherwise.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TerminalHints {
    /// `NO_COLOR` is set, to any value, the empty one included.
    pub no_color: bool,
    /// `CI` is set to a non-empty value.
    pub ci: bool,
    /// Another CI service's mark (`GITHUB_ACTIONS`, `JENKINS_URL`, ...).
    pub ci_service: bool,
    /// `TERM=dumb`: a terminal that draws no colour and no boxes.
    pub dumb: bool,
}

/// Variables that only CI services set.
const CI_SERVICE_VARIABLES: &[&str] = &["GITHUB_ACTIONS", "JENKINS_URL", "GITLAB_CI", "BUILDKITE"];

impl TerminalHints {
    /// The hints in the environment `lookup` reads (aigent's own, at the
    /// edge).
    pub fn read(lookup: impl Fn(&str) -> Option<std::ffi::OsString>) -> Self {
        let set = |name: &str| lookup(name).is_some_and(|value| !value.is_empty());
        Self {
            no_color: lookup("NO_COLOR").is_some(),
            ci: set("CI"),
            ci_service: CI_SERVICE_VARIABLES.iter().any(|name| set(name)),
            dumb: lookup("TERM").is_some_and(|term| term == "dumb"),
        }
    }

    /// No colour and no box drawing, on stdout and stderr alike.
    pub fn plain(&self) -> bool {
        self.no_color || self.ci || self.ci_service || self.dumb
    }

    /// JSON by default even on a terminal: a CI job, or `NO_COLOR`, which
    /// REQ-F-003 reads as "no one is looking at this terminal".
    pub fn wants_json(&self) -> bool {
        self.ci || self.no_color
    }
}

/// The format to use: an explicit choice (`--output` or `AIGENT_OUTPUT`) wins,
/// otherwise text on a terminal and json everywhere else, so an agent
/// reading a pipe gets structure without asking for it. A terminal in a CI
/// job or under `NO_COLOR` gets json too (REQ-F-003).
pub fn resolve_format(
    explicit: Option<OutputFormat>,
    stdout_is_terminal: bool,
    hints: &TerminalHints,
) -> OutputFormat {
    match explicit {
        Some(format) => format,
        None if stdout_is_terminal && !hints.wants_json() => OutputFormat::Text,
        None => OutputFormat::Json,
    }
}

/// Whether to emit ANSI colour. `always` and `never` are absolute; `auto`
/// colours a terminal unless the hints say plain (REQ-F-008: `NO_COLOR` of
/// any value, the empty one included, `CI`, `TERM=dumb`).
pub fn resolve_color(choice: ColorChoice, hints: &TerminalHints, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && !hints.plain(),
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

    fn hints(pairs: &[(&str, &str)]) -> TerminalHints {
        TerminalHints::read(|name| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| std::ffi::OsString::from(value))
        })
    }

    #[test]
    fn format_defaults_follow_the_terminal() {
        let none = TerminalHints::default();
        assert_eq!(resolve_format(None, true, &none), OutputFormat::Text);
        assert_eq!(resolve_format(None, false, &none), OutputFormat::Json);
        assert_eq!(
            resolve_format(Some(OutputFormat::Json), true, &none),
            OutputFormat::Json
        );
        assert_eq!(
            resolve_format(Some(OutputFormat::Text), false, &none),
            OutputFormat::Text
        );
    }

    /// REQ-F-003: a terminal in CI or under NO_COLOR gets json unless a
    /// format is asked for; an empty CI is no CI.
    #[test]
    fn ci_and_no_color_make_a_terminal_json() {
        for pairs in [
            &[("CI", "true")][..],
            &[("NO_COLOR", "")],
            &[("NO_COLOR", "1")],
        ] {
            let hints = hints(pairs);
            assert_eq!(
                resolve_format(None, true, &hints),
                OutputFormat::Json,
                "{pairs:?}"
            );
            assert_eq!(
                resolve_format(Some(OutputFormat::Text), true, &hints),
                OutputFormat::Text
            );
        }
        assert_eq!(
            resolve_format(None, true, &hints(&[("CI", "")])),
            OutputFormat::Text
        );
        assert_eq!(
            resolve_format(None, true, &hints(&[("TERM", "dumb")])),
            OutputFormat::Text
        );
    }

    /// REQ-F-008: NO_COLOR of any value, CI, a CI service or TERM=dumb turn
    /// colour off under auto; always and never are absolute.
    #[test]
    fn colour_is_off_under_any_plain_hint() {
        assert!(resolve_color(ColorChoice::Auto, &hints(&[]), true));
        for pairs in [
            &[("NO_COLOR", "")][..],
            &[("NO_COLOR", "1")],
            &[("CI", "1")],
            &[("GITHUB_ACTIONS", "true")],
            &[("TERM", "dumb")],
        ] {
            let hints = hints(pairs);
            assert!(hints.plain(), "{pairs:?}");
            assert!(!resolve_color(ColorChoice::Auto, &hints, true), "{pairs:?}");
            assert!(resolve_color(ColorChoice::Always, &hints, false));
        }
        assert!(!resolve_color(ColorChoice::Auto, &hints(&[]), false));
        assert!(!resolve_color(ColorChoice::Never, &hints(&[]), true));
        assert!(!hints(&[("TERM", "xterm-256color")]).plain());
    }
}
