//! What a new user trips over, each tried as they would try it.

use crate::assert_session;
use crate::common::Sandbox;

/// A hint that suggests another `aigent schema` command names the registry
/// in use; without `--commands` it would read the built-in one.
#[test]
fn hints_name_the_registry_in_use() {
    let sandbox = Sandbox::new();
    sandbox.write("my commands/broken.json", "{\"name\": \"broken\"");
    let run = sandbox.run(&[
        "--format",
        "text",
        "--commands",
        "my commands",
        "run",
        "broken",
    ]);
    assert_session!(&sandbox, &run);
    let run = sandbox.run(&[
        "--format",
        "text",
        "--commands",
        "my commands",
        "schema",
        "show",
        "nope",
    ]);
    assert_session!("unknown_name", &sandbox, &run);
}

/// The built-in examples have no file on this machine to point at.
#[test]
fn schema_show_says_where_an_embedded_declaration_comes_from() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&["--format", "text", "schema", "show", "files-get"]);
    assert_session!(&sandbox, &run);
    sandbox.write(
        "registry/files-get.yaml",
        include_str!("../../commands/files-get.yaml"),
    );
    let run = sandbox.run(&[
        "--format",
        "text",
        "--commands",
        "registry",
        "schema",
        "show",
        "files-get",
    ]);
    assert_session!("from_a_directory", &sandbox, &run);
}

/// A rejection lists each problem once: the headline no longer repeats
/// the first of them.
#[test]
fn a_text_error_says_each_problem_once() {
    let sandbox = Sandbox::new();
    let run = sandbox.run(&[
        "--format",
        "text",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "../etc",
        "--version",
        "v1",
    ]);
    assert_session!(&sandbox, &run);
    let run = sandbox.run(&[
        "--format",
        "text",
        "args",
        "check",
        "deploy",
        "--cluster-id",
        "prod",
        "--version",
        "v1",
    ]);
    assert_session!("one_problem", &sandbox, &run);
}
