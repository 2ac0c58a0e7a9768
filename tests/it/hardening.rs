//! Hostile inputs from the issue #10 review, one test per class: non-UTF-8
//! names, FIFOs, terminal escapes, resource bounds and secrets.

#[cfg(unix)]
mod non_utf8 {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use crate::common::git::{Fixture, skill_md};
    use crate::common::{Run, Sandbox};

    /// A skill directory named `sk<0xFF>x` (not UTF-8) inside the sandbox.
    fn non_utf8_skill(root: &std::path::Path) -> std::path::PathBuf {
        let dir = root.join(OsStr::from_bytes(b"sk\xffx"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), skill_md("skx")).unwrap();
        dir
    }

    #[test]
    fn skill_validate_and_to_prompt_never_panic() {
        let sandbox = Sandbox::new();
        let dir = non_utf8_skill(sandbox.path());
        for format in ["text", "json", "github"] {
            for target in [
                vec![dir.as_os_str()],
                vec![OsStr::new("--recursive"), OsStr::new(".")],
            ] {
                let run = Run::of(
                    sandbox
                        .cmd()
                        .args(["--format", format, "skill", "validate"])
                        .args(&target),
                );
                assert_ne!(run.code, 101, "{format} {target:?}:\n{run}");
                assert!(!run.stderr.contains("panicked"), "{run}");
                // The name mismatch is still found, with the name shown lossily.
                assert!(
                    run.stdout.contains("sk\u{FFFD}x") || run.stderr.contains("sk\u{FFFD}x"),
                    "{format}:\n{run}"
                );
            }
        }
        for format in ["text", "json"] {
            let run = Run::of(
                sandbox
                    .cmd()
                    .args(["--format", format, "skill", "to-prompt"])
                    .arg(&dir),
            );
            assert_ne!(run.code, 101, "{run}");
            assert!(!run.stderr.contains("panicked"), "{run}");
        }
    }

    #[test]
    fn skill_validate_changed_never_panics() {
        let fx = Fixture::new();
        fx.write("README.md", "x\n");
        fx.commit_all("base");
        fx.switch_new_branch("feature");
        non_utf8_skill(&fx.root());
        let (run, envelope) = fx.json(&["skill", "validate", "--changed"]);
        assert_ne!(run.code, 101, "{run}");
        assert!(envelope["data"]["skills"].is_array(), "{run}");
    }
}
