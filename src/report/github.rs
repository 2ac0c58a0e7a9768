//! GitHub Actions workflow commands (`::error file=...,line=...::message`),
//! so findings show inline on pull requests.

use super::{Diagnostic, Severity};

/// One annotation line for a diagnostic about `file` (or about the file the
/// diagnostic names itself, such as a script a declaration runs).
pub fn annotation(file: &str, diagnostic: &Diagnostic) -> String {
    let file = diagnostic.file.as_deref().unwrap_or(file);
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "notice",
    };
    // GitHub resolves `file` against the workspace; `./x` gains nothing.
    let file = file.strip_prefix("./").unwrap_or(file);
    let mut properties = vec![format!("file={}", escape_property(file))];
    if let Some(line) = diagnostic.line {
        properties.push(format!("line={line}"));
    }
    properties.push(format!("title={}", escape_property(diagnostic.code)));
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&diagnostic.message)
    )
}

/// The message part: `%`, CR and LF would end or corrupt the command; the
/// other characters unsafe on a terminal (ESC, BEL, bidi controls) are
/// shown as escapes, since CI logs are read on terminals too.
pub fn escape_data(text: &str) -> String {
    let text = text
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    super::escape::escape_controls(&text).into_owned()
}

/// A property value: additionally `:` and `,`, which separate properties.
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_with_line_and_title() {
        let diagnostic = Diagnostic::new(
            crate::report::diagnostic::TestCode::E003,
            "name 'Bad' must be lowercase",
        )
        .with_line(Some(2));
        assert_eq!(
            annotation("skills/Bad/SKILL.md", &diagnostic),
            "::error file=skills/Bad/SKILL.md,line=2,title=E003::name 'Bad' must be lowercase"
        );
    }

    #[test]
    fn terminal_controls_are_escaped() {
        let diagnostic = Diagnostic::new(
            crate::report::diagnostic::TestCode::E1,
            "a\u{1b}]0;title\u{7}b\nc",
        );
        let line = annotation("x\u{1b}[2J.json", &diagnostic);
        assert!(!line.contains(['\u{1b}', '\u{7}', '\n']), "{line:?}");
        assert!(line.contains("%0A"), "{line:?}");
    }

    #[test]
    fn warning_without_line() {
        let diagnostic = Diagnostic::new(
            crate::report::diagnostic::TestCode::W002,
            "body has 501 lines",
        );
        assert_eq!(
            annotation("a/SKILL.md", &diagnostic),
            "::warning file=a/SKILL.md,title=W002::body has 501 lines"
        );
    }

    #[test]
    fn separators_and_newlines_are_escaped() {
        let diagnostic = Diagnostic::new(
            crate::report::diagnostic::TestCode::E017,
            "bad: 100%\nsecond line",
        );
        assert_eq!(
            annotation("dir,with:odd/SKILL.md", &diagnostic),
            "::error file=dir%2Cwith%3Aodd/SKILL.md,title=E017::bad: 100%25%0Asecond line"
        );
    }
}
