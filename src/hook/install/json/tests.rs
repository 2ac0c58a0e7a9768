use super::*;

const AIGENT: &str = "/usr/local/bin/aigent hook --client claude-code";

fn command(client: Client) -> String {
    format!("/usr/local/bin/aigent hook --client {}", client.as_str())
}

/// Install into `before`, check install again changes nothing, uninstall,
/// and return the installed text; the uninstalled text must be `before`.
fn round_trip(client: Client, before: &str) -> String {
    let command = command(client);
    let installed = install(client, Some(before), &command, false).unwrap();
    assert_eq!(installed.action, Action::Added, "{before}");
    let after = installed.after.unwrap();
    assert!(jsonc::parse(&after, true).is_ok(), "{after}");
    let again = install(client, Some(&after), &command, false).unwrap();
    assert_eq!(again.action, Action::Unchanged);
    assert_eq!(again.after.as_deref(), Some(after.as_str()));
    let removed = uninstall(client, &after).unwrap();
    assert_eq!(removed.action, Action::Removed, "{after}");
    assert_eq!(removed.after.as_deref(), Some(before), "{after}");
    after
}

#[test]
fn a_new_file_for_each_client() {
    let created: Vec<String> = Client::ALL
        .iter()
        .filter(|client| **client != Client::Codex)
        .map(|client| {
            let edit = install(*client, None, &command(*client), false).unwrap();
            assert_eq!(edit.action, Action::Created);
            edit.after.unwrap()
        })
        .collect();
    assert_eq!(
        created[0],
        r#"{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/local/bin/aigent hook --client claude-code"
          }
        ]
      }
    ]
  }
}
"#
    );
    assert_eq!(
        created[1],
        r#"{
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          {
            "name": "aigent",
            "type": "command",
            "command": "/usr/local/bin/aigent hook --client gemini",
            "description": "aigent: check the shell command against its declared contract"
          }
        ]
      }
    ]
  }
}
"#
    );
    assert_eq!(
        created[2],
        r#"{
  "version": 1,
  "hooks": {
    "beforeShellExecution": [
      {
        "command": "/usr/local/bin/aigent hook --client cursor"
      }
    ]
  }
}
"#
    );
    for (client, text) in [Client::ClaudeCode, Client::Gemini, Client::Cursor]
        .into_iter()
        .zip(&created)
    {
        let removed = uninstall(client, text).unwrap();
        assert_eq!(removed.action, Action::FileRemoved);
        assert_eq!(removed.after, None);
    }
}

#[test]
fn other_keys_stay_in_order_and_uninstall_restores_the_bytes() {
    let before = "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(ls:*)\"]\n  }\n}\n";
    let after = round_trip(Client::ClaudeCode, before);
    assert_eq!(
        after,
        format!(
            "{{\n  \"model\": \"opus\",\n  \"permissions\": {{\n    \"allow\": [\"Bash(ls:*)\"]\n  }},\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {{\n            \"type\": \"command\",\n            \"command\": \"{AIGENT}\"\n          }}\n        ]\n      }}\n    ]\n  }}\n}}\n"
        )
    );
}

#[test]
fn joins_existing_hooks_without_touching_them() {
    let other = r#"{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "prettier --write"}]}"#;
    // Another group for the same event: aigent's group goes after it.
    let before =
        format!("{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {other}\n    ]\n  }}\n}}\n");
    let after = round_trip(Client::ClaudeCode, &before);
    assert!(
        after.contains(&format!(
            "      {other},\n      {{\n        \"matcher\": \"Bash\""
        )),
        "{after}"
    );
    // Another event only: aigent's event goes beside it.
    let before =
        format!("{{\n  \"hooks\": {{\n    \"PostToolUse\": [\n      {other}\n    ]\n  }}\n}}\n");
    let after = round_trip(Client::ClaudeCode, &before);
    assert!(
        after.contains(&format!("      {other}\n    ],\n    \"PreToolUse\": [")),
        "{after}"
    );
    // Empty containers take the entry inside them; uninstall leaves the
    // settings as they were, though without the empty containers.
    for (before, left) in [
        ("{\"hooks\": {\"PreToolUse\": []}}", None),
        ("{\"hooks\": {}, \"x\": 1}", Some("{\"x\": 1}")),
    ] {
        let after = install(Client::ClaudeCode, Some(before), AIGENT, false)
            .unwrap()
            .after
            .unwrap();
        assert!(after.contains("\"matcher\": \"Bash\""), "{after}");
        assert_eq!(
            uninstall(Client::ClaudeCode, &after)
                .unwrap()
                .after
                .as_deref(),
            left
        );
    }
}

#[test]
fn keeps_the_files_indentation_and_line_endings() {
    let before = "{\r\n    \"model\": \"opus\"\r\n}\r\n";
    let after = round_trip(Client::ClaudeCode, before);
    assert!(
        after.contains("\r\n    \"hooks\": {\r\n        \"PreToolUse\": [\r\n"),
        "{after:?}"
    );
    assert!(!after.replace("\r\n", "").contains('\n'), "{after:?}");
    let tabs = "{\n\t\"model\": \"opus\"\n}\n";
    let after = round_trip(Client::ClaudeCode, tabs);
    assert!(
        after.contains("\n\t\"hooks\": {\n\t\t\"PreToolUse\""),
        "{after}"
    );
}

#[test]
fn a_one_line_file_stays_on_one_line() {
    let before = r#"{"model": "opus"}"#;
    let after = round_trip(Client::ClaudeCode, before);
    assert!(!after.contains('\n'), "{after}");
    assert!(
        after.starts_with(r#"{"model": "opus", "hooks": {"PreToolUse":[{"matcher":"Bash","#),
        "{after}"
    );
}

#[test]
fn an_empty_object_gets_the_entry_and_uninstall_empties_it() {
    let edit = install(Client::ClaudeCode, Some("{}"), AIGENT, false).unwrap();
    let after = edit.after.unwrap();
    assert!(
        after.starts_with("{\n  \"hooks\": {\n    \"PreToolUse\""),
        "{after}"
    );
    let removed = uninstall(Client::ClaudeCode, &after).unwrap();
    // Nothing but aigent's entry: the file goes, as it would not exist.
    assert_eq!(removed.action, Action::FileRemoved);
}

#[test]
fn comments_stay_where_the_client_reads_them() {
    let before = "// Team settings\n{\n  /* the model */\n  \"model\": \"gemini-2.5-pro\", // pinned\n  \"ui\": {\"theme\": \"GitHub\"} // last\n}\n";
    let after = round_trip(Client::Gemini, before);
    assert!(
        after.contains("\"ui\": {\"theme\": \"GitHub\"}, // last\n  \"hooks\": {"),
        "{after}"
    );
    for comment in [
        "// Team settings",
        "/* the model */",
        "// pinned",
        "// last",
    ] {
        assert!(after.contains(comment), "{comment}: {after}");
    }
    // Comments inside containers aigent empties keep them.
    let before = "{\n  \"hooks\": {\n    \"BeforeTool\": [\n      // nothing yet\n    ]\n  }\n}\n";
    let after = install(
        Client::Gemini,
        Some(before),
        &command(Client::Gemini),
        false,
    )
    .unwrap()
    .after
    .unwrap();
    assert!(after.contains("// nothing yet"), "{after}");
    let removed = uninstall(Client::Gemini, &after).unwrap().after.unwrap();
    assert!(removed.contains("// nothing yet"), "{removed}");
    assert!(jsonc::parse(&removed, true).is_ok(), "{removed}");
}

#[test]
fn claude_code_settings_with_a_comment_are_malformed() {
    let err = install(Client::ClaudeCode, Some("{\n  // no\n}\n"), AIGENT, false).unwrap_err();
    assert!(
        matches!(&err, EditError::Malformed { line: 2, column: 3, message } if message.contains("comment")),
        "{err:?}"
    );
}

#[test]
fn malformed_files_and_wrong_types_name_the_place() {
    let cases = [
        (
            "{\"model\": \"opus\",}",
            "1:18: expected a key in double quotes (a trailing comma is not JSON)",
        ),
        ("[]", "1:1: the top level is an array"),
        (
            "{\"hooks\": []}",
            "1:11: `hooks` is an array; aigent's entry needs an object",
        ),
        (
            "{\"hooks\": {\"PreToolUse\": {}}}",
            "1:26: `hooks.PreToolUse` is an object; aigent's entry needs an array",
        ),
        (
            "{\"hooks\": {}, \"hooks\": {}}",
            "1:15: `hooks` appears twice",
        ),
        (
            "{\"hooks\": {\"PreToolUse\": [], \"PreToolUse\": []}}",
            "1:30: `hooks.PreToolUse` appears twice",
        ),
    ];
    for (text, expected) in cases {
        let err = install(Client::ClaudeCode, Some(text), AIGENT, false).unwrap_err();
        assert!(err.to_string().starts_with(expected), "{text}: {err}");
        assert!(uninstall(Client::ClaudeCode, text).is_err(), "{text}");
    }
}

#[test]
fn another_aigent_command_is_a_conflict_unless_replaced() {
    let old = "/old/aigent hook --client claude-code";
    let before = install(Client::ClaudeCode, Some("{\"a\": 1}\n"), old, false)
        .unwrap()
        .after
        .unwrap();
    let err = install(Client::ClaudeCode, Some(&before), AIGENT, false).unwrap_err();
    assert!(
        matches!(&err, EditError::Conflict { existing, .. } if existing == old),
        "{err:?}"
    );
    let edit = install(Client::ClaudeCode, Some(&before), AIGENT, true).unwrap();
    assert_eq!(edit.action, Action::Replaced);
    assert_eq!(edit.replaced.as_deref(), Some(old));
    assert_eq!(edit.after.unwrap(), before.replace(old, AIGENT));
}

#[test]
fn a_hand_edited_entry_counts_as_installed() {
    let portable = r#""$CLAUDE_PROJECT_DIR"/bin/aigent hook --client claude-code"#;
    let before = install(Client::ClaudeCode, Some("{}"), portable, false)
        .unwrap()
        .after
        .unwrap();
    let edit = install(Client::ClaudeCode, Some(&before), portable, false).unwrap();
    assert_eq!(edit.action, Action::Unchanged);
    assert_eq!(
        uninstall(Client::ClaudeCode, &before).unwrap().action,
        Action::FileRemoved
    );
}

#[test]
fn uninstall_removes_only_aigents_handler_from_a_shared_group() {
    let before = format!(
        "{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {{\"type\": \"command\", \"command\": \"{AIGENT}\"}},\n          {{\"type\": \"command\", \"command\": \"log-it\"}}\n        ]\n      }}\n    ]\n  }}\n}}\n"
    );
    let after = uninstall(Client::ClaudeCode, &before)
        .unwrap()
        .after
        .unwrap();
    assert_eq!(
        after,
        "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"log-it\"}\n        ]\n      }\n    ]\n  }\n}\n"
    );
}

#[test]
fn uninstall_keeps_entries_added_after_aigents_and_removes_duplicates() {
    let mine = format!(
        r#"{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{AIGENT}"}}]}}"#
    );
    let theirs = r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}"#;
    let before =
        format!("{{\"hooks\": {{\"PreToolUse\": [\n  {mine},\n  {theirs},\n  {mine}\n]}}}}");
    let edit = uninstall(Client::ClaudeCode, &before).unwrap();
    assert_eq!(edit.action, Action::Removed);
    assert_eq!(
        edit.after.unwrap(),
        format!("{{\"hooks\": {{\"PreToolUse\": [\n  {theirs}\n]}}}}")
    );
    let compact = format!("{{\"hooks\": {{\"PreToolUse\": [{mine}, {theirs}, {mine}]}}}}");
    assert_eq!(
        uninstall(Client::ClaudeCode, &compact)
            .unwrap()
            .after
            .unwrap(),
        format!("{{\"hooks\": {{\"PreToolUse\": [{theirs}]}}}}")
    );
}

#[test]
fn uninstall_without_an_entry_changes_nothing() {
    for text in [
        "{}",
        "{\"hooks\": {\"PreToolUse\": []}}",
        "{\"model\": \"x\"}",
    ] {
        let edit = uninstall(Client::ClaudeCode, text).unwrap();
        assert_eq!(edit.action, Action::NotInstalled);
        assert_eq!(edit.after.as_deref(), Some(text));
    }
    // An entry for another client is not this one's.
    let cursor = install(
        Client::ClaudeCode,
        Some("{}"),
        &command(Client::Cursor),
        false,
    )
    .unwrap()
    .after
    .unwrap();
    assert_eq!(
        uninstall(Client::ClaudeCode, &cursor).unwrap().action,
        Action::NotInstalled
    );
}

#[test]
fn cursor_entries_sit_directly_in_the_event_list() {
    let before = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      { \"command\": \"./hooks/audit.sh\" }\n    ]\n  }\n}\n";
    let after = round_trip(Client::Cursor, before);
    assert!(after.contains("{ \"command\": \"./hooks/audit.sh\" },\n      {\n        \"command\": \"/usr/local/bin/aigent hook --client cursor\"\n      }"), "{after}");
}

#[test]
fn warns_about_settings_that_stop_the_hook() {
    let cases = [
        (
            Client::ClaudeCode,
            r#"{"disableAllHooks": true}"#,
            "disableAllHooks",
        ),
        (
            Client::Gemini,
            r#"{"hooksConfig": {"enabled": false}}"#,
            "hooksConfig.enabled",
        ),
        (
            Client::Gemini,
            r#"{"hooks": {"disabled": ["aigent"]}}"#,
            "hooks.disabled",
        ),
        (Client::Cursor, r#"{"hooks": {}}"#, "version"),
    ];
    for (client, text, expected) in cases {
        let edit = install(client, Some(text), &command(client), false).unwrap();
        assert!(
            edit.warnings
                .iter()
                .any(|warning| warning.contains(expected)),
            "{text}: {:?}",
            edit.warnings
        );
    }
    let quiet = install(
        Client::Cursor,
        Some(r#"{"version": 1}"#),
        &command(Client::Cursor),
        false,
    )
    .unwrap();
    assert!(quiet.warnings.is_empty(), "{:?}", quiet.warnings);
}

#[test]
fn strings_are_escaped_in_the_entry() {
    let command = r#"'/x/"odd" dir\/aigent' hook --client claude-code"#;
    let after = install(Client::ClaudeCode, Some("{}"), command, false)
        .unwrap()
        .after
        .unwrap();
    let value: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(
        value["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
        command
    );
    assert_eq!(
        install(Client::ClaudeCode, Some(&after), command, false)
            .unwrap()
            .action,
        Action::Unchanged
    );
}

#[test]
fn an_empty_file_is_treated_as_no_settings() {
    for empty in ["", "\n", "  \n"] {
        let edit = install(Client::ClaudeCode, Some(empty), AIGENT, false).unwrap();
        assert_eq!(edit.action, Action::Added);
        assert_eq!(
            edit.after,
            install(Client::ClaudeCode, None, AIGENT, false)
                .unwrap()
                .after
        );
        assert_eq!(
            uninstall(Client::ClaudeCode, empty).unwrap().action,
            Action::NotInstalled
        );
    }
}

#[test]
fn uninstall_refuses_a_flood_of_entries_instead_of_working_through_it() {
    let entry = format!(
        r#"{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{AIGENT}"}}]}}"#
    );
    let many = vec![entry.as_str(); 33].join(",");
    let text = format!("{{\"hooks\": {{\"PreToolUse\": [{many}]}}}}");
    let err = uninstall(Client::ClaudeCode, &text).unwrap_err();
    assert!(
        matches!(err, EditError::TooManyEntries { count: 33, .. }),
        "{err:?}"
    );
    let fewer = vec![entry.as_str(); 32].join(",");
    let text = format!("{{\"hooks\": {{\"PreToolUse\": [{fewer}]}}}}");
    assert_eq!(
        uninstall(Client::ClaudeCode, &text).unwrap().action,
        Action::FileRemoved
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[ -~é\"\\\\\n\u{1F600}]{0,12}".prop_map(Value::String),
        ]
    }

    fn tree() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(4, 40, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec(("[a-zA-Z_]{1,8}", inner), 0..5)
                    .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    /// A settings object without `hooks`, laid out one of the ways people
    /// and tools write JSON.
    fn settings() -> impl Strategy<Value = (Value, String)> {
        (
            prop::collection::vec(("[a-z]{1,10}", tree()), 0..6),
            prop::sample::select(vec!["", "  ", "    ", "\t"]),
            any::<bool>(),
        )
            .prop_map(|(pairs, indent, final_newline)| {
                let mut object: serde_json::Map<String, Value> = pairs.into_iter().collect();
                object.remove("hooks");
                let value = Value::Object(object);
                let mut text = if indent.is_empty() {
                    serde_json::to_string(&value).unwrap()
                } else {
                    render(&value, indent, "", "\n")
                };
                if final_newline {
                    text.push('\n');
                }
                (value, text)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        #[test]
        fn install_adds_exactly_the_entry_and_uninstall_restores_the_bytes(
            (value, text) in settings(),
            client in prop::sample::select(vec![Client::ClaudeCode, Client::Gemini, Client::Cursor]),
        ) {
            let command = command(client);
            let installed = install(client, Some(&text), &command, false).unwrap();
            let after = installed.after.unwrap();
            let mut expected = value.clone();
            expected["hooks"] = serde_json::json!({client.event(): [client.entry(&command)]});
            prop_assert_eq!(serde_json::from_str::<Value>(&after).unwrap(), expected);
            prop_assert_eq!(
                install(client, Some(&after), &command, false).unwrap().action,
                Action::Unchanged
            );
            let removed = uninstall(client, &after).unwrap();
            if value.as_object().is_some_and(|object| object.is_empty()) && client != Client::Cursor {
                prop_assert_eq!(removed.action, Action::FileRemoved);
            } else {
                prop_assert_eq!(removed.after.as_deref(), Some(text.as_str()));
            }
        }

        #[test]
        fn the_reader_agrees_with_serde_json(value in tree()) {
            let text = serde_json::to_string_pretty(&value).unwrap();
            let doc = jsonc::parse(&text, false).unwrap();
            prop_assert_eq!(doc.root.span.clone(), 0..text.len());
            fn same(node: &jsonc::Node, value: &Value) -> bool {
                match (&node.kind, value) {
                    (jsonc::Kind::Object(members), Value::Object(map)) => {
                        members.len() == map.len()
                            && members.iter().zip(map).all(|(member, (key, value))| {
                                member.key == *key && same(&member.value, value)
                            })
                    }
                    (jsonc::Kind::Array(elements), Value::Array(values)) => {
                        elements.len() == values.len()
                            && elements.iter().zip(values).all(|(element, value)| same(&element.value, value))
                    }
                    (jsonc::Kind::String(text), Value::String(expected)) => text == expected,
                    (jsonc::Kind::Number, Value::Number(_)) => true,
                    (jsonc::Kind::Bool(b), Value::Bool(expected)) => b == expected,
                    (jsonc::Kind::Null, Value::Null) => true,
                    _ => false,
                }
            }
            prop_assert!(same(&doc.root, &value));
        }

        #[test]
        fn any_bytes_give_an_answer_not_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = jsonc::parse(&text, true);
            let _ = install(Client::Gemini, Some(&text), "aigent hook --client gemini", false);
            let _ = uninstall(Client::Gemini, &text);
        }
    }
}
