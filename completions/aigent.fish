# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_aigent_global_optspecs
    string join \n output= color= q/quiet commands= schema h/help V/version
end

function __fish_aigent_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_aigent_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_aigent_using_subcommand
    set -l cmd (__fish_aigent_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c aigent -n "__fish_aigent_needs_command" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_needs_command" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_needs_command" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_needs_command" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_needs_command" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_needs_command" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "generate" -d 'Write man pages or static completion scripts (for packagers)'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "skill" -d 'Validate, scaffold, inspect and render Agent Skills'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "plugin" -d 'Validate Claude Code plugins and marketplaces'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "schema" -d 'The registry of declared commands: list, show, lint'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "args" -d 'Check an agent\'s arguments against a declared command'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "run" -d 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command\'s own, or with --capture the envelope holding it'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "audit" -d 'Read and check the audit log: show records, verify the hash chain'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "hook" -d 'Guard the agents\' own shell tools: the hook itself, install, explain'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "mcp" -d 'Serve declared commands and skills to MCP clients'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "lsp" -d 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c aigent -n "__fish_aigent_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -f -a "man" -d 'Man pages: aigent.1 and one page per subcommand'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -f -a "completions" -d 'Static completion scripts for every supported shell'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -f -a "reference" -d 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command\'s danger level'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and not __fish_seen_subcommand_from man completions reference help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -l out-dir -d 'The directory to write into (created if missing)' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from man" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -l out-dir -d 'The directory to write into (created if missing)' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from completions" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -l out-dir -d 'The directory to write into (created if missing)' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from reference" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "man" -d 'Man pages: aigent.1 and one page per subcommand'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "completions" -d 'Static completion scripts for every supported shell'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "reference" -d 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command\'s danger level'
complete -c aigent -n "__fish_aigent_using_subcommand generate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "validate" -d 'Check skill directories against the Agent Skills rules'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "new" -d 'Create a new skill: prompts on a terminal, flags everywhere else'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "fmt" -d 'Put frontmatter into canonical form (key order, quoting, indentation)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "fix" -d 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "read-properties" -d 'Print a skill\'s frontmatter properties as JSON'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "to-prompt" -d 'Print the <available_skills> XML block that agents load'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "contracts" -d 'Hold a skill\'s Bash grants and !`cmd` commands against the registry; propose declarations'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and not __fish_seen_subcommand_from validate new fmt fix read-properties to-prompt contracts help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l profile -d 'Which client\'s view to take: its frontmatter keys count as known, and its stricter rules apply (docs/reference/client-profiles.md). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard' -r -f -a "standard\t'The Agent Skills spec keys only'
claude-code\t'The spec keys plus Claude Code\'s own (model, context, hooks, ...)'
codex\t'OpenAI Codex: metadata.short-description is checked'
copilot\t'GitHub Copilot in VS Code: argument-hint, user-invocable, disable-model-invocation'
cursor\t'Cursor: disable-model-invocation'
opencode\t'OpenCode: names must be ASCII'
gemini\t'Gemini CLI: no byte-order mark, a line break after the closing ---'
strictest\t'Fails wherever any known client would: every client rule, spec keys only'
permissive\t'Every key is known'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l base -d 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l compare-to -d 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)' -r -f -a "work-tree\t'Everything not yet in the base: committed, staged, unstaged, untracked (stats every tracked file, like `git status`)'
index\t'Committed and staged work: for a pre-commit hook'
head\t'Committed work only: for CI on a clean checkout'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l limit -d 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l cursor -d 'Continue a listing where its last page ended (`meta.cursor`)' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -s r -l recursive -d 'Validate every skill below each PATH (hidden directories included; .git, node_modules and target skipped)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l strict -d 'Treat warnings as errors'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l changed -d 'Check only what this branch changed (git): since the merge base with the base revision'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l watch -d 'Validate again whenever a file below the PATHs changes, printing only the findings that appeared or went away; Ctrl-C stops'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from validate" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l name -d 'The skill\'s name [default: PATH\'s last component]' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l description -d 'What the skill does and when to use it (at most 1024 characters)' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l license -d 'A license: an SPDX id (MIT, Apache-2.0) or a short text' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l compatibility -d 'Environment requirements, e.g. "Needs git and network access"' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l allowed-tools -d 'Tools the skill may use, space-separated, e.g. "Read Bash(git:*)"' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l with -d 'Subdirectories to create, each with a starter file the body links to (a comma list, or repeat the flag)' -r -f -a "scripts\t'scripts/run.sh: code the agent runs'
references\t'references/REFERENCE.md: documentation loaded when needed'
assets\t'assets/template.md: templates the output is built from'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -s y -l yes -d 'Do not ask anything: take every answer from the flags'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l non-interactive -d 'Never ask: without --yes, exit 4 (INPUT_REQUIRED) instead of prompting, even on a terminal'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from new" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -s r -l recursive -d 'Format every skill below each PATH'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l check -d 'Write nothing; exit 1 if any file would change'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l diff -d 'Write nothing; print the change as a unified diff (implies --check)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l force -d 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user\'s); refused without it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fmt" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l profile -d 'Which frontmatter keys count as known (the others move to metadata, except a key some client reads, which never moves). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard' -r -f -a "standard\t'The Agent Skills spec keys only'
claude-code\t'The spec keys plus Claude Code\'s own (model, context, hooks, ...)'
codex\t'OpenAI Codex: metadata.short-description is checked'
copilot\t'GitHub Copilot in VS Code: argument-hint, user-invocable, disable-model-invocation'
cursor\t'Cursor: disable-model-invocation'
opencode\t'OpenCode: names must be ASCII'
gemini\t'Gemini CLI: no byte-order mark, a line break after the closing ---'
strictest\t'Fails wherever any known client would: every client rule, spec keys only'
permissive\t'Every key is known'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -s r -l recursive -d 'Fix every skill below each PATH'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l dry-run -d 'Show the diffs; write nothing'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l rename-dir -d 'Rename a skill directory whose name is not a valid name to the proposed one (never over an existing name), then fix its name'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l force -d 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user\'s); refused without it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from fix" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from read-properties" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -l max-tokens -d 'Fail (exit 1) when the listing is over N tokens (o200k_base)' -r
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -s r -l recursive -d 'List every skill below each PATH (as skill validate --recursive finds them)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from to-prompt" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -s r -l recursive -d 'Search each directory for skills at any depth'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from contracts" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Check skill directories against the Agent Skills rules'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "new" -d 'Create a new skill: prompts on a terminal, flags everywhere else'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "fmt" -d 'Put frontmatter into canonical form (key order, quoting, indentation)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "fix" -d 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "read-properties" -d 'Print a skill\'s frontmatter properties as JSON'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "to-prompt" -d 'Print the <available_skills> XML block that agents load'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "contracts" -d 'Hold a skill\'s Bash grants and !`cmd` commands against the registry; propose declarations'
complete -c aigent -n "__fish_aigent_using_subcommand skill; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -f -a "validate" -d 'Check plugins and marketplaces: manifests, sources, skills, components'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and not __fish_seen_subcommand_from validate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l profile -d 'Which extra frontmatter keys count as known in the plugins\' skills' -r -f -a "standard\t'The Agent Skills spec keys only'
claude-code\t'The spec keys plus Claude Code\'s own (model, context, hooks, ...)'
codex\t'OpenAI Codex: metadata.short-description is checked'
copilot\t'GitHub Copilot in VS Code: argument-hint, user-invocable, disable-model-invocation'
cursor\t'Cursor: disable-model-invocation'
opencode\t'OpenCode: names must be ASCII'
gemini\t'Gemini CLI: no byte-order mark, a line break after the closing ---'
strictest\t'Fails wherever any known client would: every client rule, spec keys only'
permissive\t'Every key is known'"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l base -d 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]' -r
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l compare-to -d 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)' -r -f -a "work-tree\t'Everything not yet in the base: committed, staged, unstaged, untracked (stats every tracked file, like `git status`)'
index\t'Committed and staged work: for a pre-commit hook'
head\t'Committed work only: for CI on a clean checkout'"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l strict -d 'Treat warnings as errors'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l changed -d 'Check only what this branch changed (git): since the merge base with the base revision'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from validate" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Check plugins and marketplaces: manifests, sources, skills, components'
complete -c aigent -n "__fish_aigent_using_subcommand plugin; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "list" -d 'List the declared commands'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "show" -d 'Show one command\'s declaration or JSON Schema'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "lint" -d 'Lint every declaration in the registry'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "export" -d 'Write declarations as an agent\'s own policy rules, with what each keeps and drops'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "import" -d 'Write declarations from a CLI\'s own spec (CLI Agent Spec manifest, usage KDL)'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and not __fish_seen_subcommand_from list show lint export import help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l limit -d 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]' -r
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l cursor -d 'Continue a listing where its last page ended (`meta.cursor`)' -r
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l base -d 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]' -r
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l compare-to -d 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)' -r -f -a "work-tree\t'Everything not yet in the base: committed, staged, unstaged, untracked (stats every tracked file, like `git status`)'
index\t'Committed and staged work: for a pre-commit hook'
head\t'Committed work only: for CI on a clean checkout'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l changed -d 'Check only what this branch changed (git): since the merge base with the base revision'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l watch -d 'Lint again whenever a file in the --commands directory changes, printing only the findings that appeared or went away; Ctrl-C stops'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from lint" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l to -d 'The policy language to write' -r -f -a "claude-permissions\t'Claude Code settings.json `permissions` rules'
codex-execpolicy\t'Codex execpolicy `prefix_rule`s (Starlark, a `.rules` file)'
gemini-policy\t'Gemini CLI policy engine `[[rule]]`s (TOML)'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l out-file -d 'Write the document to FILE instead of stdout' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l force -d 'Replace FILE when it exists'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l allow-partial -d 'Write the rules that can be written when some declaration cannot be exported'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l from -d 'The spec\'s format' -r -f -a "agent-spec\t'A CLI Agent Spec manifest: the JSON `tool --schema` prints (bare, or in its envelope)'
usage\t'A usage spec (KDL v2), as jdx/usage, clap (clap_usage) and cobra emit it'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l program -d 'The program the declarations run (the spec\'s `bin` for usage; required for agent-spec, whose manifest does not name it)' -r
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l out-dir -d 'The directory to write into [default: the --commands registry]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l force -d 'Replace existing NAME.json declarations of the same names'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l dry-run -d 'Write nothing; report what would be written'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the declared commands'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one command\'s declaration or JSON Schema'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "lint" -d 'Lint every declaration in the registry'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write declarations as an agent\'s own policy rules, with what each keeps and drops'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "import" -d 'Write declarations from a CLI\'s own spec (CLI Agent Spec manifest, usage KDL)'
complete -c aigent -n "__fish_aigent_using_subcommand schema; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -f -a "check" -d 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and not __fish_seen_subcommand_from check help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l audit-log -d 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l value-from-env -d 'Take the sensitive parameter PARAM\'s value from the environment variable VAR (repeatable)' -r
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l value-from-file -d 'Take the sensitive parameter PARAM\'s value from the file PATH, without its final newline (repeatable)' -r
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l no-audit -d 'Write no audit record of a rejection (args check runs nothing)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l allow-secret-argv -d 'Accept a sensitive parameter\'s value among the arguments, with a warning (refused otherwise: `ps` shows aigent\'s command line to every local user)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from help" -f -a "check" -d 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
complete -c aigent -n "__fish_aigent_using_subcommand args; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand run" -l timeout -d 'Kill the command\'s whole process group after SECS seconds (fractions allowed) and exit 10 [default: the declaration\'s timeout_s, else 600]' -r
complete -c aigent -n "__fish_aigent_using_subcommand run" -l audit-log -d 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand run" -l result -d 'Write the json envelope to PATH (atomically, in any format) instead of stderr' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand run" -l heartbeat-ms -d 'With --capture in json mode: while the command runs, write a heartbeat line on stdout every MS milliseconds (at least 1000), before the envelope: {"status":"running","heartbeat":true,"elapsed_ms":N}' -r
complete -c aigent -n "__fish_aigent_using_subcommand run" -l sandbox -d 'How strictly to enforce the command\'s sandbox [default: aigent.toml\'s [sandbox] mode, else best-effort]' -r -f -a "require\t'Nothing runs unless the kernel enforces all of the sandbox'
best-effort\t'Enforce what the kernel can; warn about the rest'
off\t'No sandbox'"
complete -c aigent -n "__fish_aigent_using_subcommand run" -l value-from-env -d 'Take the sensitive parameter PARAM\'s value from the environment variable VAR (repeatable)' -r
complete -c aigent -n "__fish_aigent_using_subcommand run" -l value-from-file -d 'Take the sensitive parameter PARAM\'s value from the file PATH, without its final newline (repeatable)' -r
complete -c aigent -n "__fish_aigent_using_subcommand run" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand run" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand run" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand run" -l dry-run -d 'Print the argv that would run, and run nothing'
complete -c aigent -n "__fish_aigent_using_subcommand run" -l confirm-destructive -d 'Run a command declared destructive (refused with exit 2 without this)'
complete -c aigent -n "__fish_aigent_using_subcommand run" -l capture -d 'Return the command\'s stdout and stderr in the envelope (data.stdout, data.stderr), which then goes to stdout; without it stdout is the command\'s own and the envelope goes to stderr'
complete -c aigent -n "__fish_aigent_using_subcommand run" -l allow-secret-argv -d 'Accept a sensitive parameter\'s value among the arguments, with a warning (refused otherwise: `ps` shows aigent\'s command line to every local user)'
complete -c aigent -n "__fish_aigent_using_subcommand run" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand run" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand run" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand run" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -f -a "show" -d 'Print audit records, oldest first, filtered by command, event, time or request'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -f -a "verify" -d 'Check the hash chain of the audit log and its rotated files'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -f -a "key" -d 'Signing keys for checkpoints in the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -f -a "export" -d 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and not __fish_seen_subcommand_from show verify key export help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l command -d 'Only records of this declared command' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l event -d 'Only records of this event (COMMAND_STARTED, COMMAND_EXECUTED, TOOL_ARG_VALIDATION_FAILURE, ...)' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l since -d 'Only records at or after TIME: RFC 3339 (2026-11-23T09:00:00Z), a date, or an age (30m, 2h, 7d)' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l request-id -d 'Only records of this request (the `request_id` in every envelope\'s meta)' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l last -d 'Only the last N matching records' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l limit -d 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l cursor -d 'Continue a listing where its last page ended (`meta.cursor`)' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l audit-log -d 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l audit-log -d 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l expect-head -d 'Fail unless this head (SHA256, or SEQ:SHA256 as --print-head prints it) is still in the chain' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l expect-seq -d 'Fail unless the chain still reaches record N' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l public-key -d 'Also check the signed checkpoints with this public key (from `audit key new`), and report the last' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l print-head -d 'Print only the head, as one line SEQ:SHA256, for storing elsewhere'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l allow-legacy-prefix -d 'Accept lines before the first chained record (records an older aigent wrote before it kept a chain)'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -f -a "new" -d 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from key" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l otlp -d 'An OTLP/HTTP collector: http://host:4318 (spans go to /v1/traces) or the full traces URL' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l syslog -d 'A syslog receiver: udp://host:port, tcp://host:port or unix:///path' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l interval -d 'Seconds between rounds with --follow [default: aigent.toml, else 5]' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l timeout -d 'Seconds to wait for a collector [default: aigent.toml, else 5]' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l rounds -d 'Stop --follow after this many rounds (tests)' -r
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l audit-log -d 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l follow -d 'Keep exporting new records every --interval seconds until stopped'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print audit records, oldest first, filtered by command, event, time or request'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check the hash chain of the audit log and its rotated files'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "key" -d 'Signing keys for checkpoints in the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "export" -d 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
complete -c aigent -n "__fish_aigent_using_subcommand audit; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l client -d 'The client whose hook event arrives on stdin' -r -f -a "claude-code\t'Claude Code: a PreToolUse hook on the Bash tool'
codex\t'OpenAI Codex: a PreToolUse hook on its shell tool (Bash)'
gemini\t'Gemini CLI: a BeforeTool hook on run_shell_command'
cursor\t'Cursor: a beforeShellExecution hook'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l route -d 'Rewrite a matched command into `aigent run NAME ...` where the client can rewrite it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l headless -d 'Answer an ask as a deny that says how to approve (for headless runs, where nobody can answer a prompt)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "explain" -d 'Show how the hook judges a command line: each segment\'s verdict and rule'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "install" -d 'Add aigent\'s hook to a client\'s settings file (runs before each shell command)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "uninstall" -d 'Take aigent\'s hook out of a client\'s settings file'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "doctor" -d 'Check that the installed hook runs: its program exists and answers a probe event'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "trust" -d 'Let the hook read this project\'s registry (its content as it is now)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "learn" -d 'Propose declarations for the commands the hook asked about, from the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and not __fish_seen_subcommand_from explain install uninstall doctor trust learn help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -l cwd -d 'The working directory the command would run in [default: the current one]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from explain" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l client -d 'The client whose settings file to edit' -r -f -a "claude-code\t'Claude Code: a PreToolUse hook on the Bash tool'
codex\t'OpenAI Codex: a PreToolUse hook on its shell tool (Bash)'
gemini\t'Gemini CLI: a BeforeTool hook on run_shell_command'
cursor\t'Cursor: a beforeShellExecution hook'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l scope -d 'Whose settings: the project\'s (shared through the repository) or yours (every project)' -r -f -a "project\t'The project\'s settings file, under --project'
user\t'Your own settings file, under your home directory'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l project -d 'The project\'s root directory, for --scope project [default: the current directory]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l program -d 'The aigent the entry runs [default: this aigent, by absolute path]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l dry-run -d 'Print the change as a unified diff and write nothing'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l force -d 'Edit a settings file that has other names (hard links); the others keep the old content'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l replace -d 'Rewrite an aigent entry that runs another command (another path or registry)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l route -d 'The entry routes matched commands through `aigent run` (hook --route)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l headless -d 'The entry answers an ask as a deny that says how to approve (hook --headless): for clients run headless, such as `gemini -p`, where an ask would wait for nobody'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l client -d 'The client whose settings file to edit' -r -f -a "claude-code\t'Claude Code: a PreToolUse hook on the Bash tool'
codex\t'OpenAI Codex: a PreToolUse hook on its shell tool (Bash)'
gemini\t'Gemini CLI: a BeforeTool hook on run_shell_command'
cursor\t'Cursor: a beforeShellExecution hook'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l scope -d 'Whose settings: the project\'s (shared through the repository) or yours (every project)' -r -f -a "project\t'The project\'s settings file, under --project'
user\t'Your own settings file, under your home directory'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l project -d 'The project\'s root directory, for --scope project [default: the current directory]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l dry-run -d 'Print the change as a unified diff and write nothing'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l force -d 'Edit a settings file that has other names (hard links); the others keep the old content'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l client -d 'The client whose settings file to check' -r -f -a "claude-code\t'Claude Code: a PreToolUse hook on the Bash tool'
codex\t'OpenAI Codex: a PreToolUse hook on its shell tool (Bash)'
gemini\t'Gemini CLI: a BeforeTool hook on run_shell_command'
cursor\t'Cursor: a beforeShellExecution hook'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l scope -d 'Whose settings: the project\'s or yours' -r -f -a "project\t'The project\'s settings file, under --project'
user\t'Your own settings file, under your home directory'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l project -d 'The project\'s root directory [default: the current directory]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from doctor" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -l check -d 'Only say whether it is trusted (exit 1 when not); record nothing'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from trust" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l since -d 'Only decisions at or after TIME: RFC 3339, a date, or an age (30m, 2h, 7d)' -r
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l session -d 'Only decisions of this client session' -r
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l client -d 'Only decisions of this client' -r -f -a "claude-code\t'Claude Code: a PreToolUse hook on the Bash tool'
codex\t'OpenAI Codex: a PreToolUse hook on its shell tool (Bash)'
gemini\t'Gemini CLI: a BeforeTool hook on run_shell_command'
cursor\t'Cursor: a beforeShellExecution hook'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l program -d 'Only lines of this program (its name, as `git` or `cargo`)' -r
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l min-count -d 'Propose only what was seen at least N times' -r
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l from-claude-settings -d 'Learn from the Bash(...) rules of a Claude Code settings file: the logged lines each rule admitted, and what else it admits' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l class -d 'The class of every proposal, as the person decides [default: the catalog\'s, else discards_work]' -r -f -a "reads\t'Reads and changes nothing: allowed'
changes-project\t'Changes files in the project only: allowed'
runs-project-code\t'Runs the project\'s own code: allowed in aigent\'s sandbox'
discards-work\t'Discards work or touches shared state: asked'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l cwd -d 'The directory lines without one ran in [default: the current one]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l audit-log -d 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l from-lines -d 'Learn from command lines on stdin, one a line, instead of the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l write -d 'Save the proposals into the project\'s registry'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l review -d 'Ask about each proposal on a terminal (accept, skip, change class), then save the accepted ones'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l force -d 'With --write or --review, replace a declaration of the same name'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from learn" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "explain" -d 'Show how the hook judges a command line: each segment\'s verdict and rule'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "install" -d 'Add aigent\'s hook to a client\'s settings file (runs before each shell command)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Take aigent\'s hook out of a client\'s settings file'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "doctor" -d 'Check that the installed hook runs: its program exists and answers a probe event'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "trust" -d 'Let the hook read this project\'s registry (its content as it is now)'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "learn" -d 'Propose declarations for the commands the hook asked about, from the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand hook; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -f -a "serve" -d 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and not __fish_seen_subcommand_from serve help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l skills -d 'Serve the skills found below DIR (repeatable)' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l timeout -d 'Kill a call\'s whole process group after SECS seconds (fractions allowed)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l audit-log -d 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-output -d 'Keep at most BYTES of each of a call\'s stdout and stderr' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l state-key-file -d 'Seal confirmation states with the key in PATH (32 bytes or more), so that servers sharing it accept each other\'s retries [default: a random key per process]' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l sandbox -d 'How strictly each call enforces its command\'s sandbox [default: the registry\'s aigent.toml [sandbox] mode, read at each call, else best-effort]' -r -f -a "require\t'Nothing runs unless the kernel enforces all of the sandbox'
best-effort\t'Enforce what the kernel can; warn about the rest'
off\t'No sandbox'"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l http -d 'Serve Streamable HTTP on ADDR (path /mcp) instead of stdio' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l token-file -d 'Read the bearer token every HTTP request must carry from PATH' -r -F
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l token-env -d 'Read the bearer token every HTTP request must carry from the environment variable VAR' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l allowed-host -d 'A host name clients reach the server by (the Host header), beyond localhost (repeatable)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l allowed-origin -d 'A browser origin allowed to call, e.g. https://app.example.com:443 (repeatable; any other Origin gets 403)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l oauth-authorization-server -d 'Publish OAuth protected-resource metadata (RFC 9728) naming URL as the authorization server that issues tokens for this server (repeatable; needs --oauth-resource)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l oauth-resource -d 'The URL clients reach this server\'s MCP endpoint by, as the OAuth metadata\'s `resource` (e.g. https://mcp.example.com/mcp)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-connections -d 'Serve at most N HTTP connections that have shown the token; a request over it gets 503' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-unauthenticated-connections -d 'Hold at most N HTTP connections that have not shown the token; a new one over it closes the oldest of them read from' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l read-timeout -d 'Give each HTTP request SECS for its headers, and SECS again for its body [default: 10 and 30]' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-argument-bytes -d 'Refuse a tools/call whose arguments are over BYTES of JSON (-32602)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-argument-values -d 'Refuse a tools/call whose arguments hold over N JSON values, object keys counted (-32602)' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-calls -d 'Run at most N calls at once; a call over it waits in line for a place' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l max-queued-calls -d 'Let at most N calls wait for a place; a call over it is refused with a retryable error' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l queue-timeout -d 'Refuse a call, with a retryable error, once it has waited SECS for a place [default: 30]' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l drain -d 'On shutdown (stdin closed, SIGTERM, SIGINT, SIGHUP), let calls in flight run up to SECS more before cancelling them' -r
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l confirm-destructive -d 'Run destructive tools without asking the client first (unattended use)'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l allow-remote -d 'Allow --http on an address that is not loopback'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
complete -c aigent -n "__fish_aigent_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand lsp" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand completions" -l commands -d 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project\'s commands/ once trusted]' -r -f -a "(__fish_complete_directories)"
complete -c aigent -n "__fish_aigent_using_subcommand completions" -l output -d 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]' -r -f -a "text\t''
json\t''
jsonl\t'a listing\'s items one JSON object a line, then a `_summary` line; any other result\'s envelope on one line'
tsv\t'`skill validate`, `skill contracts`, `plugin validate`, `schema list`, `schema lint`, `audit show` and `hook learn`: tab-separated rows under a header line'
plain\t'a listing\'s items one line each, no header; any other result as text without colour'
json-schema\t'`schema show` only: the bare JSON Schema'
github\t'`skill validate`, `plugin validate` and `schema lint`: GitHub Actions annotations'
sarif\t'`skill validate`, `plugin validate` and `schema lint`: a SARIF 2.1.0 log for code scanning'"
complete -c aigent -n "__fish_aigent_using_subcommand completions" -l color -d 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aigent -n "__fish_aigent_using_subcommand completions" -l static -d 'A self-contained script that never calls aigent back'
complete -c aigent -n "__fish_aigent_using_subcommand completions" -s q -l quiet -d 'Print only problems: no `ok` lines, no summaries'
complete -c aigent -n "__fish_aigent_using_subcommand completions" -l schema -d 'Print this command\'s manifest entry (CLI Agent Spec) as JSON instead of running it'
complete -c aigent -n "__fish_aigent_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aigent -n "__fish_aigent_using_subcommand completions" -s V -l version -d 'Print version'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "generate" -d 'Write man pages or static completion scripts (for packagers)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "skill" -d 'Validate, scaffold, inspect and render Agent Skills'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "plugin" -d 'Validate Claude Code plugins and marketplaces'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "schema" -d 'The registry of declared commands: list, show, lint'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "args" -d 'Check an agent\'s arguments against a declared command'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "run" -d 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command\'s own, or with --capture the envelope holding it'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "audit" -d 'Read and check the audit log: show records, verify the hash chain'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "hook" -d 'Guard the agents\' own shell tools: the hook itself, install, explain'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "mcp" -d 'Serve declared commands and skills to MCP clients'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "lsp" -d 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c aigent -n "__fish_aigent_using_subcommand help; and not __fish_seen_subcommand_from generate skill plugin schema args run audit hook mcp lsp completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "man" -d 'Man pages: aigent.1 and one page per subcommand'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "completions" -d 'Static completion scripts for every supported shell'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from generate" -f -a "reference" -d 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command\'s danger level'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "validate" -d 'Check skill directories against the Agent Skills rules'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "new" -d 'Create a new skill: prompts on a terminal, flags everywhere else'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "fmt" -d 'Put frontmatter into canonical form (key order, quoting, indentation)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "fix" -d 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "read-properties" -d 'Print a skill\'s frontmatter properties as JSON'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "to-prompt" -d 'Print the <available_skills> XML block that agents load'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from skill" -f -a "contracts" -d 'Hold a skill\'s Bash grants and !`cmd` commands against the registry; propose declarations'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from plugin" -f -a "validate" -d 'Check plugins and marketplaces: manifests, sources, skills, components'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "list" -d 'List the declared commands'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "show" -d 'Show one command\'s declaration or JSON Schema'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "lint" -d 'Lint every declaration in the registry'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "export" -d 'Write declarations as an agent\'s own policy rules, with what each keeps and drops'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from schema" -f -a "import" -d 'Write declarations from a CLI\'s own spec (CLI Agent Spec manifest, usage KDL)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from args" -f -a "check" -d 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "show" -d 'Print audit records, oldest first, filtered by command, event, time or request'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "verify" -d 'Check the hash chain of the audit log and its rotated files'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "key" -d 'Signing keys for checkpoints in the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from audit" -f -a "export" -d 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "explain" -d 'Show how the hook judges a command line: each segment\'s verdict and rule'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "install" -d 'Add aigent\'s hook to a client\'s settings file (runs before each shell command)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "uninstall" -d 'Take aigent\'s hook out of a client\'s settings file'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "doctor" -d 'Check that the installed hook runs: its program exists and answers a probe event'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "trust" -d 'Let the hook read this project\'s registry (its content as it is now)'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from hook" -f -a "learn" -d 'Propose declarations for the commands the hook asked about, from the audit log'
complete -c aigent -n "__fish_aigent_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "serve" -d 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
