//! git config keys whose value git runs as a program, or that pull in more
//! config: one list, for the lint's `git -c` refusal ([`super::code_words`])
//! and the hook's reading of a repository's own config files.
//!
//! A key is named as git names it: `section.key`, or
//! `section.subsection.key` (the subsection may hold dots); section and key
//! in any case, the subsection as written.

/// Keys without a subsection whose value is a program git runs (or a
/// directory of programs: `core.hooksPath`, `init.templateDir`).
const PROGRAM_KEYS: &[&str] = &[
    "core.alternaterefscommand",
    "core.askpass",
    "core.editor",
    "core.fsmonitor",
    "core.gitproxy",
    "core.hookspath",
    "core.pager",
    "core.sshcommand",
    "credential.helper",
    "diff.external",
    "gpg.program",
    "imap.tunnel",
    "init.templatedir",
    "interactive.difffilter",
    "sendemail.cccmd",
    "sendemail.headercmd",
    "sendemail.sendmailcmd",
    "sendemail.smtpserver",
    "sendemail.tocmd",
    "sequence.editor",
    "uploadpack.packobjectshook",
    "web.browser",
];

/// `section.*.key`: keys of a subsection whose value is a program.
const SUBSECTION_KEYS: &[&str] = &[
    "browser.*.cmd",
    "browser.*.path",
    "difftool.*.path",
    "man.*.path",
    "mergetool.*.path",
    "remote.*.receivepack",
    "remote.*.uploadpack",
];

/// Key names that are a program in any subsection (`diff.x.textconv`,
/// `filter.lfs.process`, `credential.https://host.helper`).
const PROGRAM_KEY_NAMES: &[&str] = &[
    "clean", "cmd", "command", "driver", "helper", "process", "program", "smudge", "textconv",
];

/// Keys that pull in another config file.
const INCLUDE_KEYS: &[&str] = &["include.path", "includeif.*.path"];

/// `name` split into its section and key (lower case) and subsection.
fn split(name: &str) -> Option<(String, Option<&str>, String)> {
    let (section, rest) = name.split_once('.')?;
    let (subsection, key) = match rest.rsplit_once('.') {
        Some((subsection, key)) => (Some(subsection), key),
        None => (None, rest),
    };
    Some((
        section.to_ascii_lowercase(),
        subsection,
        key.to_ascii_lowercase(),
    ))
}

/// Whether `name` pulls in another config file (`include.path`,
/// `includeIf.COND.path`).
pub fn includes(name: &str) -> bool {
    let Some((section, subsection, key)) = split(name) else {
        return false;
    };
    let pattern = match subsection {
        Some(_) => format!("{section}.*.{key}"),
        None => format!("{section}.{key}"),
    };
    INCLUDE_KEYS.contains(&pattern.as_str())
}

/// Whether git runs a program named by the key `name` set to `value`, or
/// loads code through it (an include, whose file may set anything).
/// `value` is `None` where it is not known (`git --config-env`); a key
/// written alone in a file, or `git -c KEY`, is `Some("true")`, as git
/// reads it.
pub fn runs_code(name: &str, value: Option<&str>) -> bool {
    let Some((section, subsection, key)) = split(name) else {
        return false;
    };
    let value = value.map(str::trim);
    // What git reads as a boolean (a bare key is `true`).
    let boolean = value.is_some_and(|value| {
        matches!(
            value.to_ascii_lowercase().as_str(),
            "" | "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0"
        )
    });
    // An empty value names no program (`credential.helper =` resets).
    if value == Some("") {
        return false;
    }
    match (section.as_str(), subsection, key.as_str()) {
        // `!CMD` runs a shell command; anything else is a git subcommand.
        ("alias", ..) => value.is_none_or(|value| value.starts_with('!')),
        ("submodule", Some(_), "update") => value.is_none_or(|value| value.starts_with('!')),
        // A boolean is the built-in monitor, or none.
        ("core", None, "fsmonitor") => !boolean,
        // A pager that is off, on (the default one), or `cat` runs nothing
        // the file names.
        ("core", None, "pager") | ("pager", None, _) => {
            !boolean && value.is_none_or(|value| value != "cat")
        }
        // A protocol allowed (`ext::` runs its URL as a command, and a
        // remote helper is a program); `never` allows nothing.
        ("protocol", _, "allow") => value.is_none_or(|value| !value.eq_ignore_ascii_case("never")),
        // A URL rewritten to `ext::CMD` runs CMD on fetch and push.
        ("url", Some(base), "insteadof" | "pushinsteadof") => base
            .get(..5)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("ext::")),
        (_, None, _) => {
            let pattern = format!("{section}.{key}");
            PROGRAM_KEYS.contains(&pattern.as_str()) || INCLUDE_KEYS.contains(&pattern.as_str())
        }
        (_, Some(_), _) => {
            let pattern = format!("{section}.*.{key}");
            SUBSECTION_KEYS.contains(&pattern.as_str())
                || INCLUDE_KEYS.contains(&pattern.as_str())
                || PROGRAM_KEY_NAMES.contains(&key.as_str())
        }
    }
}

/// `name` as the hook names it in a reason: a subsection (which may be a
/// URL holding a token) as `*`, section and key in lower case.
pub fn shown(name: &str) -> String {
    match split(name) {
        Some((section, Some(_), key)) => format!("{section}.*.{key}"),
        Some((section, None, key)) => format!("{section}.{key}"),
        None => name.to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_keys_run_code_and_their_harmless_values_do_not() {
        for (name, value) in [
            ("core.fsmonitor", "/tmp/x.sh"),
            ("core.sshCommand", "ssh -i k"),
            ("CORE.PAGER", "less"),
            ("core.hooksPath", ".husky"),
            ("diff.external", "x"),
            ("diff.x.textconv", "x"),
            ("diff.x.command", "x"),
            ("merge.x.driver", "x"),
            ("filter.lfs.process", "git-lfs filter-process"),
            ("filter.x.clean", "x"),
            ("filter.x.smudge", "x"),
            ("alias.st", "!sh -c x"),
            ("alias.st", " !x"),
            ("credential.helper", "store"),
            ("credential.https://t@host.helper", "x"),
            ("gpg.program", "x"),
            ("gpg.ssh.program", "x"),
            ("sequence.editor", "x"),
            ("pager.log", "x"),
            ("interactive.diffFilter", "x"),
            ("uploadpack.packObjectsHook", "x"),
            ("remote.origin.receivepack", "x"),
            ("remote.origin.uploadpack", "x"),
            ("protocol.ext.allow", "always"),
            ("protocol.allow", "user"),
            ("url.ext::sh -c x.insteadOf", "https://"),
            ("url.EXT::x.pushInsteadOf", "git@"),
            ("include.path", "x"),
            ("includeIf.gitdir:/a/.path", "x"),
            ("submodule.x.update", "!x"),
        ] {
            assert!(runs_code(name, Some(value)), "{name}={value}");
            assert!(runs_code(name, None), "{name} unknown");
        }
        for (name, value) in [
            ("core.fsmonitor", "false"),
            ("core.fsmonitor", "true"),
            ("core.pager", "cat"),
            ("pager.log", "false"),
            ("pager.diff", "true"),
            ("alias.st", "status"),
            ("credential.helper", ""),
            ("protocol.ext.allow", "never"),
            ("url.https://x/.insteadOf", "gh:"),
            ("core.bare", "false"),
            ("remote.origin.url", "https://x"),
            ("http.proxy", "http://p"),
            ("submodule.x.path", "vendor/x"),
            ("submodule.x.update", "rebase"),
            ("user.name", "x"),
            ("nosection", "x"),
        ] {
            assert!(!runs_code(name, Some(value)), "{name}={value}");
        }
        assert!(includes("INCLUDE.Path"));
        assert!(includes("includeIf.onbranch:main.path"));
        assert!(!includes("core.path"));
        assert_eq!(
            shown("credential.https://token@host.Helper"),
            "credential.*.helper"
        );
        assert_eq!(shown("core.fsMonitor"), "core.fsmonitor");
    }
}
