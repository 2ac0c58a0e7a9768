//! One mapping from an invocation to its result, for every front: `aigent
//! args check`, `aigent run` and the MCP server's `tools/call` get their
//! [`Outcome`] (exit code, data, error body, warnings) from here and only
//! render it. A declaration that cannot be loaded gets its error body from
//! [`load_error_body`], the protocol's answer its outcome from
//! [`of_invoked`] (or the parts of it the MCP server shares: [`rejected`],
//! [`spawn_failed`]).

use serde_json::{Value, json};

use crate::exec::process::SpawnError;
use crate::exec::{self, Argv};
use crate::guard::{self, Rejection};
use crate::invoke::{InvokeError, Invoked};
use crate::registry::LoadError;
use crate::report::findings::TextOptions;
use crate::report::{ErrorBody, ErrorCode, FieldError, Outcome};

/// Why the declaration `name` could not be loaded, as the envelope's error:
/// its code (hence its exit code), the message, each error-level finding
/// of an invalid declaration with the file it is in, the files of a
/// duplicate, and what to do next. Hints that name an `aigent` command line
/// are for people at a shell; the MCP server leaves them out.
pub fn load_error_body(err: &LoadError) -> ErrorBody {
    let message = err.to_string();
    const LIST: &str = "run `aigent schema list` to see the declared commands";
    match err {
        LoadError::NotFound { closest, .. } => {
            let mut body = ErrorBody::new(ErrorCode::NotFound, message);
            if let Some(closest) = closest {
                body = body.with_hint(format!("did you mean `{closest}`?"));
            }
            body.with_hint(LIST)
        }
        LoadError::InvalidName { .. } => {
            ErrorBody::new(ErrorCode::NotFound, message).with_hint(LIST)
        }
        LoadError::MissingRegistry { .. } => ErrorBody::new(ErrorCode::NotFound, message)
            .with_hint("point --commands (or AIGENT_COMMANDS) at a directory of declarations"),
        LoadError::Invalid {
            file, diagnostics, ..
        } => {
            let mut body = ErrorBody::new(ErrorCode::InvalidDeclaration, message);
            body.errors = diagnostics
                .iter()
                .filter(|diagnostic| diagnostic.is_error())
                .map(FieldError::from)
                .collect();
            body.extra.insert("file".to_owned(), file.clone().into());
            body.with_hint("run `aigent schema lint` for every problem in the registry")
        }
        LoadError::Duplicate { files, .. } => {
            let mut body = ErrorBody::new(ErrorCode::DuplicateCommand, message);
            body.extra.insert("files".to_owned(), files.clone().into());
            body.with_hint("keep one declaration file per command name")
        }
        LoadError::Unreadable { .. } | LoadError::RegistryUnreadable { .. } => {
            ErrorBody::new(ErrorCode::Precondition, message)
        }
    }
}

/// Why the protocol could not be carried out for `name` (no subprocess,
/// an argv it cannot build, the audit log, the sandbox), as the envelope's
/// error.
pub fn invoke_error_body(name: &str, err: &InvokeError) -> ErrorBody {
    err.error_body(name)
}

/// Phase 1 refused the arguments: exit 2, every violation in the error,
/// the audit log's trouble (if any) as a warning.
pub fn rejected(rejection: &Rejection, audit_warning: Option<String>) -> Outcome {
    Outcome::failure(
        json!({"command": rejection.command}),
        rejection.to_error_body(),
        String::new(),
    )
    .with_warnings(audit_warning.into_iter().collect())
}

/// The child could not be started: its argv (sensitive values redacted)
/// and what was enforced of its sandbox.
pub fn spawn_failed(
    name: &str,
    argv: &Argv,
    error: &SpawnError,
    sandbox_json: Value,
    warnings: Vec<String>,
) -> Outcome {
    let (exit_code, body) = exec::report::spawn_error(error);
    let data = json!({"command": name, "argv": argv.redacted(), "phase": "execution", "sandbox": sandbox_json});
    Outcome::failure_with_exit_code(exit_code, data, body, String::new()).with_warnings(warnings)
}

/// The whole answer of the protocol for `name`, as `args check` and `run`
/// print it: what passed (with its text), what would run, what needs a
/// yes, what was refused, what could not start, and how the child ended.
/// Warnings are the protocol's own (audit log, sandbox); a caller puts the
/// declaration's lint warnings first.
pub fn of_invoked(name: &str, invoked: Invoked, text: TextOptions) -> Outcome {
    match invoked {
        Invoked::Accepted(validated) => {
            let data =
                json!({"command": validated.command, "arguments": validated.to_redacted_json()});
            let text = if text.quiet {
                String::new()
            } else {
                guard::render::render_accepted(&validated, text.style)
            };
            Outcome::success(data, text)
        }
        Invoked::Rejected {
            rejection,
            audit_warning,
        } => rejected(&rejection, audit_warning),
        Invoked::Planned {
            argv,
            timeout,
            sandbox,
            ..
        } => {
            // A dry run says what a run would do (CLI Agent Spec
            // REQ-C-004): its `would_*` effect, and what it would affect.
            let data = json!({
                "command": name,
                "argv": argv.redacted(),
                "env": argv.env().redacted(),
                "timeout_ms": u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
                "sandbox": sandbox,
                "dry_run": true,
                "effect": "would_run",
                "would_affect": {"command": name, "argv": argv.redacted()},
            });
            let text = exec::report::render_dry_run(name, &argv, text.quiet, text.style);
            Outcome::success(data, text)
        }
        Invoked::ConfirmationRequired {
            argv,
            audit_warning,
        } => {
            let data =
                json!({"command": name, "argv": argv.redacted(), "requires_confirmation": true});
            let body = exec::report::confirmation_required(name, &argv);
            Outcome::failure(data, body, String::new())
                .with_warnings(audit_warning.into_iter().collect())
        }
        Invoked::SpawnFailed {
            argv,
            error,
            audit_warning,
            sandbox,
        } => {
            let mut warnings: Vec<String> = audit_warning.into_iter().collect();
            warnings.extend(sandbox.warnings());
            spawn_failed(name, &argv, &error, sandbox.to_json(), warnings)
        }
        Invoked::Finished {
            argv,
            finished,
            child_exit,
            timeout,
            audit_warning,
            sandbox,
        } => {
            let mut warnings: Vec<String> = audit_warning.into_iter().collect();
            warnings.extend(sandbox.warnings());
            let mut data = exec::report::execution_data(name, &argv, &finished, &child_exit);
            data["sandbox"] = sandbox.to_json();
            let outcome =
                match exec::report::execution_error(name, &finished, &child_exit, Some(timeout)) {
                    None => Outcome::success(data, String::new()),
                    Some(body) => Outcome::failure_with_exit_code(
                        child_exit.aigent_exit_code(&finished),
                        data,
                        body,
                        String::new(),
                    ),
                };
            outcome.with_warnings(warnings)
        }
    }
}

/// `first` (a declaration's lint warnings), then the outcome's own.
pub fn with_warnings_first(mut outcome: Outcome, mut first: Vec<String>) -> Outcome {
    first.append(&mut outcome.warnings);
    outcome.warnings = first;
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Diagnostic;

    #[test]
    fn an_invalid_declaration_carries_its_errors_file_and_hint() {
        let err = LoadError::Invalid {
            name: "deploy".to_owned(),
            file: "commands/deploy.json".to_owned(),
            diagnostics: vec![
                Diagnostic::new(crate::contract::codes::Code::FileUnreadable, "bad pattern")
                    .with_field("version"),
                Diagnostic::new(
                    crate::contract::codes::Code::IdentifierUnpatterned,
                    "only a warning",
                ),
            ],
        };
        let body = load_error_body(&err);
        assert_eq!(body.code, ErrorCode::InvalidDeclaration);
        assert_eq!(body.errors.len(), 1, "warnings are not errors");
        assert_eq!(body.errors[0].message, "bad pattern");
        assert_eq!(body.extra["file"], "commands/deploy.json");
        assert!(body.hints[0].contains("schema lint"), "{:?}", body.hints);
    }

    #[test]
    fn a_missing_command_names_the_closest() {
        let err = LoadError::NotFound {
            name: "deplyo".to_owned(),
            registry: "the built-in examples".to_owned(),
            closest: Some("deploy".to_owned()),
        };
        let body = load_error_body(&err);
        assert_eq!(body.code, ErrorCode::NotFound);
        assert_eq!(body.hints[0], "did you mean `deploy`?");
    }
}
