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

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
            "[ -~é]{0,12}".prop_map(Value::from),
            prop::collection::vec(any::<i32>().prop_map(|n| Value::from(i64::from(n))), 0..4)
                .prop_map(|values| Value::Array(values.into_iter().collect())),
        ]
    }

    /// A config as people write them: top-level keys, then tables (some
    /// nested, some with comments), never a `hooks` table of its own.
    fn config() -> impl Strategy<Value = String> {
        let keys = prop::collection::vec(("[a-z_]{1,8}", scalar()), 0..5);
        let tables = prop::collection::vec(
            (
                "[a-z]{1,6}",
                prop::option::of("[a-z]{1,6}"),
                prop::collection::vec(("[a-z_]{1,8}", scalar()), 0..4),
                any::<bool>(),
            ),
            0..4,
        );
        (keys, tables).prop_map(|(keys, tables)| {
            let mut doc = DocumentMut::new();
            for (key, value) in keys {
                if key != "hooks" {
                    doc[&key] = Item::Value(value);
                }
            }
            for (name, child, entries, commented) in tables {
                if name == "hooks" || doc.contains_key(&name) {
                    continue;
                }
                let mut table = Table::new();
                for (key, value) in entries {
                    table[&key] = Item::Value(value);
                }
                if commented {
                    table
                        .decor_mut()
                        .set_prefix("\n# settings for this table\n");
                }
                match child {
                    Some(child) => {
                        let mut outer = Table::new();
                        outer.set_implicit(true);
                        outer.insert(&child, Item::Table(table));
                        doc.insert(&name, Item::Table(outer));
                    }
                    None => {
                        doc.insert(&name, Item::Table(table));
                    }
                }
            }
            doc.to_string()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn install_then_uninstall_restores_the_bytes(text in config()) {
            let installed = install(Client::Codex, Some(&text), AIGENT, false).unwrap();
            let after = installed.after.unwrap();
            let doc: DocumentMut = after.parse().unwrap();
            let groups = doc["hooks"]["PreToolUse"].as_array_of_tables().unwrap();
            prop_assert_eq!(groups.len(), 1);
            prop_assert_eq!(
                groups.get(0).unwrap()["hooks"][0]["command"].as_str(),
                Some(AIGENT)
            );
            prop_assert!(after.starts_with(text.trim_end()), "{}", after);
            prop_assert_eq!(
                install(Client::Codex, Some(&after), AIGENT, false).unwrap().action,
                Action::Unchanged
            );
            let removed = uninstall(Client::Codex, &after).unwrap();
            if text.trim().is_empty() {
                prop_assert_eq!(removed.action, Action::FileRemoved);
            } else {
                prop_assert_eq!(removed.after.as_deref(), Some(text.as_str()));
            }
        }

        #[test]
        fn any_bytes_give_an_answer_not_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = install(Client::Codex, Some(&text), AIGENT, false);
            let _ = uninstall(Client::Codex, &text);
        }
    }
}
