//! Signed checkpoints through the binary: `audit key new`, runs that sign
//! with the key from a file or a variable, `verify --public-key`, and the
//! faults (missing, exposed or wrong key, a rewritten chain).

use serde_json::Value;

use crate::common::{Run, Sandbox};

fn rejections(sandbox: &Sandbox, count: usize, env: &[(&str, &str)]) -> Vec<Run> {
    (0..count)
        .map(|index| {
            let mut cmd = sandbox.cmd();
            for (name, value) in env {
                cmd.env(name, value);
            }
            Run::of(cmd.args([
                "--output",
                "json",
                "args",
                "check",
                "deploy",
                "--cluster-id",
                &format!("../c{index}"),
                "--version",
                "1.2.3",
            ]))
        })
        .collect()
}

fn new_key(sandbox: &Sandbox) -> (String, String) {
    let key = sandbox.join("keys/audit.key");
    std::fs::create_dir_all(key.parent().unwrap()).unwrap();
    let key = key.to_str().unwrap().to_owned();
    let (run, envelope) = sandbox.json(&["audit", "key", "new", &key]);
    run.assert_code(0);
    let secret = std::fs::read_to_string(&key).unwrap();
    let hex = secret.lines().nth(1).unwrap();
    assert!(
        !run.stdout.contains(hex) && !run.stderr.contains(hex),
        "{run}"
    );
    assert_eq!(envelope["data"]["public_key"], format!("{key}.pub"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    (key.clone(), format!("{key}.pub"))
}

#[test]
fn runs_sign_checkpoints_that_verify_reports() {
    let sandbox = Sandbox::new();
    let (key, public) = new_key(&sandbox);
    // Not again over the same file.
    let again = sandbox.run(&["--output", "json", "audit", "key", "new", &key]);
    again.assert_code(4);
    for run in rejections(
        &sandbox,
        6,
        &[
            ("AIGENT_AUDIT_KEY_FILE", &key),
            ("AIGENT_AUDIT_CHECKPOINT_EVERY", "3"),
        ],
    ) {
        run.assert_code(2);
    }
    let (run, envelope) = sandbox.json(&["audit", "verify", "--public-key", &public]);
    run.assert_code(0);
    let data = &envelope["data"];
    // Records 1-3, checkpoint 4, records 5-6, checkpoint 7, record 8 ...
    assert_eq!(data["checkpoints"], 2, "{run}");
    assert_eq!(data["last_signed_checkpoint"]["seq"], 7, "{run}");
    assert_eq!(data["records_after_last_signed_checkpoint"], 1, "{run}");
    let text = sandbox.run(&[
        "--output",
        "text",
        "audit",
        "verify",
        "--public-key",
        &public,
    ]);
    assert!(text.stdout.contains("the last at seq 7"), "{text}");
    // The key's text in a variable signs the same way.
    let secret = std::fs::read_to_string(&key).unwrap();
    for run in rejections(
        &sandbox,
        3,
        &[
            ("AIGENT_AUDIT_KEY", &secret),
            ("AIGENT_AUDIT_CHECKPOINT_EVERY", "3"),
        ],
    ) {
        run.assert_code(2);
    }
    let (run, envelope) = sandbox.json(&["audit", "verify", "--public-key", &public]);
    run.assert_code(0);
    assert_eq!(envelope["data"]["checkpoints"], 4, "{run}");

    // A record edited and every hash after it recomputed: the chain alone
    // passes, the signature at the next checkpoint does not.
    let log = sandbox.audit_log();
    let mut lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    lines[4] = lines[4].replace("../c3", "../c9");
    let mut prev = sha256_hex(b"aigent audit log v1");
    for line in &mut lines {
        let mut value: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
        value.insert("prev".into(), Value::from(prev.clone()));
        *line = serde_json::to_string(&value).unwrap();
        prev = sha256_hex(line.as_bytes());
    }
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    sandbox.json(&["audit", "verify"]).0.assert_code(0);
    let (run, envelope) = sandbox.json(&["audit", "verify", "--public-key", &public]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "signature_mismatch", "{run}");
    assert_eq!(envelope["error"]["line"], 7, "{run}");
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[test]
fn key_faults_are_reported_never_a_crash() {
    let sandbox = Sandbox::new();
    let (key, public) = new_key(&sandbox);
    // A missing key file: the run is refused before anything runs.
    let runs = rejections(
        &sandbox,
        1,
        &[(
            "AIGENT_AUDIT_KEY_FILE",
            sandbox.join("none.key").to_str().unwrap(),
        )],
    );
    let run = &runs[0];
    assert!(
        run.stderr.contains("none.key") || run.stdout.contains("none.key"),
        "{run}"
    );
    // A key others can read is refused.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let runs = rejections(&sandbox, 1, &[("AIGENT_AUDIT_KEY_FILE", &key)]);
        let text = format!("{}{}", runs[0].stdout, runs[0].stderr);
        assert!(text.contains("chmod 600"), "{}", runs[0]);
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    // A variable that holds no key: refused, and its text not echoed.
    let runs = rejections(&sandbox, 1, &[("AIGENT_AUDIT_KEY", "s3cr3t-not-a-key")]);
    let text = format!("{}{}", runs[0].stdout, runs[0].stderr);
    assert!(text.contains("AIGENT_AUDIT_KEY"), "{}", runs[0]);
    assert!(!text.contains("s3cr3t"), "{}", runs[0]);
    // verify: a missing public key is NOT_FOUND, the private key is refused.
    for run in rejections(
        &sandbox,
        2,
        &[
            ("AIGENT_AUDIT_KEY_FILE", &key),
            ("AIGENT_AUDIT_CHECKPOINT_EVERY", "1"),
        ],
    ) {
        run.assert_code(2);
    }
    let (run, _) = sandbox.json(&["audit", "verify", "--public-key", "/nonexistent.pub"]);
    run.assert_code(5);
    let (run, envelope) = sandbox.json(&["audit", "verify", "--public-key", &key]);
    run.assert_code(4);
    assert!(
        envelope["error"]["message"]
            .as_str()
            .unwrap()
            .contains("private key"),
        "{run}"
    );
    // Another key's public half: the checkpoint is named.
    let other = sandbox.join("keys/other.key");
    sandbox
        .run(&["audit", "key", "new", other.to_str().unwrap()])
        .assert_code(0);
    let other_public = format!("{}.pub", other.display());
    let (run, envelope) = sandbox.json(&["audit", "verify", "--public-key", &other_public]);
    run.assert_code(1);
    assert_eq!(envelope["error"]["problem"], "checkpoint_key", "{run}");
    let (run, _) = sandbox.json(&["audit", "verify", "--public-key", &public]);
    run.assert_code(0);
}
