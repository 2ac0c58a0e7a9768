use super::*;

const AIGENT: &str = "/usr/local/bin/aigent hook --client codex";

fn round_trip(before: &str) -> String {
    let installed = install(Client::Codex, Some(before), AIGENT, false).unwrap();
    assert_eq!(installed.action, Action::Added, "{before}");
    let after = installed.after.unwrap();
    assert!(after.parse::<DocumentMut>().is_ok(), "{after}");
    let again = install(Client::Codex, Some(&after), AIGENT, false).unwrap();
    assert_eq!(again.action, Action::Unchanged);
    assert_eq!(again.after.as_deref(), Some(after.as_str()));
    let removed = uninstall(Client::Codex, &after).unwrap();
    assert_eq!(removed.action, Action::Removed, "{after}");
    assert_eq!(removed.after.as_deref(), Some(before), "{after}");
    after
}

#[test]
fn a_new_config() {
    let edit = install(Client::Codex, None, AIGENT, false).unwrap();
    assert_eq!(edit.action, Action::Created);
    let text = edit.after.unwrap();
    assert_eq!(
        text,
        format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"{AIGENT}\"\nstatusMessage = \"{HOOK_DESCRIPTION}\"\n"
        )
    );
    let removed = uninstall(Client::Codex, &text).unwrap();
    assert_eq!(removed.action, Action::FileRemoved);
    assert_eq!(removed.after, None);
}

#[test]
fn comments_and_other_tables_stay() {
    let before = "# Codex settings\nmodel = \"gpt-5\" # pinned\napproval_policy = \"on-request\"\n\n[features]\n# hooks are on by default\nweb_search = true\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\"\nargs = [\"--port\", \"0\"]\n";
    let after = round_trip(before);
    assert!(after.starts_with(before), "{after}");
    assert!(after.ends_with(&format!(
        "\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"{AIGENT}\"\nstatusMessage = \"{HOOK_DESCRIPTION}\"\n"
    )), "{after}");
}

#[test]
fn joins_existing_groups_and_keeps_later_tables_after() {
    let before = "model = \"gpt-5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"^apply_patch$\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"check-patch\" # ours\n\n[profiles.fast]\nmodel = \"gpt-5-mini\"\n";
    let after = round_trip(before);
    let ours = after.find(AIGENT).unwrap();
    assert!(after.find("check-patch").unwrap() < ours, "{after}");
    assert!(ours < after.find("[profiles.fast]").unwrap(), "{after}");
}

#[test]
fn inline_groups_get_an_inline_entry() {
    let before = "[hooks]\nPreToolUse = [{ matcher = \"Edit\", hooks = [{ type = \"command\", command = \"fmt\" }] }]\n";
    let after = round_trip(before);
    assert!(
        after.contains(&format!("command = \"{AIGENT}\"")),
        "{after}"
    );
    assert!(!after.contains("[[hooks"), "{after}");
}

#[test]
fn conflict_and_replace() {
    let old = "/old/aigent hook --client codex";
    let before = install(Client::Codex, Some("model = \"x\"\n"), old, false)
        .unwrap()
        .after
        .unwrap();
    let err = install(Client::Codex, Some(&before), AIGENT, false).unwrap_err();
    assert!(
        matches!(&err, EditError::Conflict { existing, line: 8, .. } if existing == old),
        "{err:?}"
    );
    let edit = install(Client::Codex, Some(&before), AIGENT, true).unwrap();
    assert_eq!(edit.action, Action::Replaced);
    assert_eq!(edit.after.unwrap(), before.replace(old, AIGENT));
}

#[test]
fn uninstall_leaves_other_handlers_and_groups() {
    let before = format!(
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"{AIGENT}\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"log-it\"\n"
    );
    let after = uninstall(Client::Codex, &before).unwrap().after.unwrap();
    assert_eq!(
        after,
        "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"log-it\"\n"
    );
    let edit = uninstall(Client::Codex, "model = \"x\"\n").unwrap();
    assert_eq!(edit.action, Action::NotInstalled);
}

#[test]
fn malformed_and_wrong_types_name_the_place() {
    for (text, expected) in [
        ("model = \n", "1:9"),
        (
            "hooks = \"on\"\n",
            "1:9: `hooks` is a string; aigent's entry needs a table",
        ),
        (
            "[hooks]\nPreToolUse = 3\n",
            "2:14: `hooks.PreToolUse` is an integer; aigent's entry needs an array of tables",
        ),
        ("[a]\n[a]\n", "2:2: duplicate key"),
    ] {
        let err = install(Client::Codex, Some(text), AIGENT, false).unwrap_err();
        assert!(err.to_string().starts_with(expected), "{text:?}: {err}");
    }
}

#[test]
fn warns_when_hooks_are_turned_off() {
    let edit = install(
        Client::Codex,
        Some("[features]\nhooks = false\n"),
        AIGENT,
        false,
    )
    .unwrap();
    assert_eq!(edit.warnings.len(), 1, "{:?}", edit.warnings);
    assert!(edit.warnings[0].contains("hooks = false"));
}

#[test]
fn odd_endings_survive_the_round_trip() {
    round_trip("model = \"gpt-5\"\r\n\r\n[features]\r\nweb_search = true\r\n");
    round_trip("# only a comment\n");
}

#[test]
fn a_missing_final_newline_comes_back_as_one() {
    // toml_edit ends every key-value line; the meaning is unchanged.
    let after = install(Client::Codex, Some("model = \"gpt-5\""), AIGENT, false)
        .unwrap()
        .after
        .unwrap();
    let removed = uninstall(Client::Codex, &after).unwrap();
    assert_eq!(removed.after.as_deref(), Some("model = \"gpt-5\"\n"));
}
