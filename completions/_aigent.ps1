
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'aigent' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'aigent'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'aigent' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write man pages or static completion scripts (for packagers)')
            [CompletionResult]::new('skill', 'skill', [CompletionResultType]::ParameterValue, 'Validate, scaffold, inspect and render Agent Skills')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Validate Claude Code plugins and marketplaces')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'The registry of declared commands: list, show, lint')
            [CompletionResult]::new('args', 'args', [CompletionResultType]::ParameterValue, 'Check an agent''s arguments against a declared command')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command''s own, or with --capture the envelope holding it')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Read and check the audit log: show records, verify the hash chain')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Guard the agents'' own shell tools: the hook itself, install, explain')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve declared commands and skills to MCP clients')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;generate' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Man pages: aigent.1 and one page per subcommand')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Static completion scripts for every supported shell')
            [CompletionResult]::new('reference', 'reference', [CompletionResultType]::ParameterValue, 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;generate;man' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'The directory to write into (created if missing)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;generate;completions' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'The directory to write into (created if missing)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;generate;reference' {
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'The directory to write into (created if missing)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;generate;help' {
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Man pages: aigent.1 and one page per subcommand')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Static completion scripts for every supported shell')
            [CompletionResult]::new('reference', 'reference', [CompletionResultType]::ParameterValue, 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;generate;help;man' {
            break
        }
        'aigent;generate;help;completions' {
            break
        }
        'aigent;generate;help;reference' {
            break
        }
        'aigent;generate;help;help' {
            break
        }
        'aigent;skill' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check skill directories against the Agent Skills rules')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a new skill: prompts on a terminal, flags everywhere else')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Put frontmatter into canonical form (key order, quoting, indentation)')
            [CompletionResult]::new('fix', 'fix', [CompletionResultType]::ParameterValue, 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)')
            [CompletionResult]::new('read-properties', 'read-properties', [CompletionResultType]::ParameterValue, 'Print a skill''s frontmatter properties as JSON')
            [CompletionResult]::new('to-prompt', 'to-prompt', [CompletionResultType]::ParameterValue, 'Print the <available_skills> XML block that agents load')
            [CompletionResult]::new('contracts', 'contracts', [CompletionResultType]::ParameterValue, 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;skill;validate' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Which client''s view to take: its frontmatter keys count as known, and its stricter rules apply (docs/reference/client-profiles.md). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]')
            [CompletionResult]::new('--compare-to', '--compare-to', [CompletionResultType]::ParameterName, 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue a listing where its last page ended (`meta.cursor`)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Validate every skill below each PATH (hidden directories included; .git, node_modules and target skipped)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Validate every skill below each PATH (hidden directories included; .git, node_modules and target skipped)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat warnings as errors')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Check only what this branch changed (git): since the merge base with the base revision')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Validate again whenever a file below the PATHs changes, printing only the findings that appeared or went away; Ctrl-C stops')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;new' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'The skill''s name [default: PATH''s last component]')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'What the skill does and when to use it (at most 1024 characters)')
            [CompletionResult]::new('--license', '--license', [CompletionResultType]::ParameterName, 'A license: an SPDX id (MIT, Apache-2.0) or a short text')
            [CompletionResult]::new('--compatibility', '--compatibility', [CompletionResultType]::ParameterName, 'Environment requirements, e.g. "Needs git and network access"')
            [CompletionResult]::new('--allowed-tools', '--allowed-tools', [CompletionResultType]::ParameterName, 'Tools the skill may use, space-separated, e.g. "Read Bash(git:*)"')
            [CompletionResult]::new('--with', '--with', [CompletionResultType]::ParameterName, 'Subdirectories to create, each with a starter file the body links to (a comma list, or repeat the flag)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask anything: take every answer from the flags')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask anything: take every answer from the flags')
            [CompletionResult]::new('--non-interactive', '--non-interactive', [CompletionResultType]::ParameterName, 'Never ask: without --yes, exit 4 (INPUT_REQUIRED) instead of prompting, even on a terminal')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;fmt' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Format every skill below each PATH')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Format every skill below each PATH')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Write nothing; exit 1 if any file would change')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Write nothing; print the change as a unified diff (implies --check)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user''s); refused without it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;fix' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Which frontmatter keys count as known (the others move to metadata, except a key some client reads, which never moves). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Fix every skill below each PATH')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Fix every skill below each PATH')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Show the diffs; write nothing')
            [CompletionResult]::new('--rename-dir', '--rename-dir', [CompletionResultType]::ParameterName, 'Rename a skill directory whose name is not a valid name to the proposed one (never over an existing name), then fix its name')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user''s); refused without it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;read-properties' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;to-prompt' {
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Fail (exit 1) when the listing is over N tokens (o200k_base)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'List every skill below each PATH (as skill validate --recursive finds them)')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'List every skill below each PATH (as skill validate --recursive finds them)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;contracts' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Search each directory for skills at any depth')
            [CompletionResult]::new('--recursive', '--recursive', [CompletionResultType]::ParameterName, 'Search each directory for skills at any depth')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;skill;help' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check skill directories against the Agent Skills rules')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a new skill: prompts on a terminal, flags everywhere else')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Put frontmatter into canonical form (key order, quoting, indentation)')
            [CompletionResult]::new('fix', 'fix', [CompletionResultType]::ParameterValue, 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)')
            [CompletionResult]::new('read-properties', 'read-properties', [CompletionResultType]::ParameterValue, 'Print a skill''s frontmatter properties as JSON')
            [CompletionResult]::new('to-prompt', 'to-prompt', [CompletionResultType]::ParameterValue, 'Print the <available_skills> XML block that agents load')
            [CompletionResult]::new('contracts', 'contracts', [CompletionResultType]::ParameterValue, 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;skill;help;validate' {
            break
        }
        'aigent;skill;help;new' {
            break
        }
        'aigent;skill;help;fmt' {
            break
        }
        'aigent;skill;help;fix' {
            break
        }
        'aigent;skill;help;read-properties' {
            break
        }
        'aigent;skill;help;to-prompt' {
            break
        }
        'aigent;skill;help;contracts' {
            break
        }
        'aigent;skill;help;help' {
            break
        }
        'aigent;plugin' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check plugins and marketplaces: manifests, sources, skills, components')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;plugin;validate' {
            [CompletionResult]::new('--profile', '--profile', [CompletionResultType]::ParameterName, 'Which extra frontmatter keys count as known in the plugins'' skills')
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]')
            [CompletionResult]::new('--compare-to', '--compare-to', [CompletionResultType]::ParameterName, 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat warnings as errors')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Check only what this branch changed (git): since the merge base with the base revision')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;plugin;help' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check plugins and marketplaces: manifests, sources, skills, components')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;plugin;help;validate' {
            break
        }
        'aigent;plugin;help;help' {
            break
        }
        'aigent;schema' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the declared commands')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one command''s declaration or JSON Schema')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint every declaration in the registry')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write declarations as an agent''s own policy rules, with what each keeps and drops')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;schema;list' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue a listing where its last page ended (`meta.cursor`)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;schema;show' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;schema;lint' {
            [CompletionResult]::new('--base', '--base', [CompletionResultType]::ParameterName, 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]')
            [CompletionResult]::new('--compare-to', '--compare-to', [CompletionResultType]::ParameterName, 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--changed', '--changed', [CompletionResultType]::ParameterName, 'Check only what this branch changed (git): since the merge base with the base revision')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Lint again whenever a file in the --commands directory changes, printing only the findings that appeared or went away; Ctrl-C stops')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;schema;export' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'The policy language to write')
            [CompletionResult]::new('--out-file', '--out-file', [CompletionResultType]::ParameterName, 'Write the document to FILE instead of stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace FILE when it exists')
            [CompletionResult]::new('--allow-partial', '--allow-partial', [CompletionResultType]::ParameterName, 'Write the rules that can be written when some declaration cannot be exported')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;schema;import' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The spec''s format')
            [CompletionResult]::new('--program', '--program', [CompletionResultType]::ParameterName, 'The program the declarations run (the spec''s `bin` for usage; required for agent-spec, whose manifest does not name it)')
            [CompletionResult]::new('--out-dir', '--out-dir', [CompletionResultType]::ParameterName, 'The directory to write into [default: the --commands registry]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace existing NAME.json declarations of the same names')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Write nothing; report what would be written')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;schema;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the declared commands')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one command''s declaration or JSON Schema')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint every declaration in the registry')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write declarations as an agent''s own policy rules, with what each keeps and drops')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;schema;help;list' {
            break
        }
        'aigent;schema;help;show' {
            break
        }
        'aigent;schema;help;lint' {
            break
        }
        'aigent;schema;help;export' {
            break
        }
        'aigent;schema;help;import' {
            break
        }
        'aigent;schema;help;help' {
            break
        }
        'aigent;args' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate arguments for a declared command (Phase 1 only; runs nothing)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;args;check' {
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--value-from-env', '--value-from-env', [CompletionResultType]::ParameterName, 'Take the sensitive parameter PARAM''s value from the environment variable VAR (repeatable)')
            [CompletionResult]::new('--value-from-file', '--value-from-file', [CompletionResultType]::ParameterName, 'Take the sensitive parameter PARAM''s value from the file PATH, without its final newline (repeatable)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--no-audit', '--no-audit', [CompletionResultType]::ParameterName, 'Write no audit record of a rejection (args check runs nothing)')
            [CompletionResult]::new('--allow-secret-argv', '--allow-secret-argv', [CompletionResultType]::ParameterName, 'Accept a sensitive parameter''s value among the arguments, with a warning (refused otherwise: `ps` shows aigent''s command line to every local user)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;args;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate arguments for a declared command (Phase 1 only; runs nothing)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;args;help;check' {
            break
        }
        'aigent;args;help;help' {
            break
        }
        'aigent;run' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Kill the command''s whole process group after SECS seconds (fractions allowed) and exit 10 [default: the declaration''s timeout_s, else 600]')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--result', '--result', [CompletionResultType]::ParameterName, 'Write the json envelope to PATH (atomically, in any format) instead of stderr')
            [CompletionResult]::new('--heartbeat-ms', '--heartbeat-ms', [CompletionResultType]::ParameterName, 'With --capture in json mode: while the command runs, write a heartbeat line on stdout every MS milliseconds (at least 1000), before the envelope: {"status":"running","heartbeat":true,"elapsed_ms":N}')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'How strictly to enforce the command''s sandbox [default: aigent.toml''s [sandbox] mode, else best-effort]')
            [CompletionResult]::new('--value-from-env', '--value-from-env', [CompletionResultType]::ParameterName, 'Take the sensitive parameter PARAM''s value from the environment variable VAR (repeatable)')
            [CompletionResult]::new('--value-from-file', '--value-from-file', [CompletionResultType]::ParameterName, 'Take the sensitive parameter PARAM''s value from the file PATH, without its final newline (repeatable)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the argv that would run, and run nothing')
            [CompletionResult]::new('--confirm-destructive', '--confirm-destructive', [CompletionResultType]::ParameterName, 'Run a command declared destructive (refused with exit 2 without this)')
            [CompletionResult]::new('--capture', '--capture', [CompletionResultType]::ParameterName, 'Return the command''s stdout and stderr in the envelope (data.stdout, data.stderr), which then goes to stdout; without it stdout is the command''s own and the envelope goes to stderr')
            [CompletionResult]::new('--allow-secret-argv', '--allow-secret-argv', [CompletionResultType]::ParameterName, 'Accept a sensitive parameter''s value among the arguments, with a warning (refused otherwise: `ps` shows aigent''s command line to every local user)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;audit' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print audit records, oldest first, filtered by command, event, time or request')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain of the audit log and its rotated files')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Signing keys for checkpoints in the audit log')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;audit;show' {
            [CompletionResult]::new('--command', '--command', [CompletionResultType]::ParameterName, 'Only records of this declared command')
            [CompletionResult]::new('--event', '--event', [CompletionResultType]::ParameterName, 'Only records of this event (COMMAND_STARTED, COMMAND_EXECUTED, TOOL_ARG_VALIDATION_FAILURE, ...)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only records at or after TIME: RFC 3339 (2026-11-23T09:00:00Z), a date, or an age (30m, 2h, 7d)')
            [CompletionResult]::new('--request-id', '--request-id', [CompletionResultType]::ParameterName, 'Only records of this request (the `request_id` in every envelope''s meta)')
            [CompletionResult]::new('--last', '--last', [CompletionResultType]::ParameterName, 'Only the last N matching records')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]')
            [CompletionResult]::new('--cursor', '--cursor', [CompletionResultType]::ParameterName, 'Continue a listing where its last page ended (`meta.cursor`)')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;audit;verify' {
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--expect-head', '--expect-head', [CompletionResultType]::ParameterName, 'Fail unless this head (SHA256, or SEQ:SHA256 as --print-head prints it) is still in the chain')
            [CompletionResult]::new('--expect-seq', '--expect-seq', [CompletionResultType]::ParameterName, 'Fail unless the chain still reaches record N')
            [CompletionResult]::new('--public-key', '--public-key', [CompletionResultType]::ParameterName, 'Also check the signed checkpoints with this public key (from `audit key new`), and report the last')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--print-head', '--print-head', [CompletionResultType]::ParameterName, 'Print only the head, as one line SEQ:SHA256, for storing elsewhere')
            [CompletionResult]::new('--allow-legacy-prefix', '--allow-legacy-prefix', [CompletionResultType]::ParameterName, 'Accept lines before the first chained record (records an older aigent wrote before it kept a chain)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;audit;key' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;audit;key;new' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;audit;key;help' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;audit;key;help;new' {
            break
        }
        'aigent;audit;key;help;help' {
            break
        }
        'aigent;audit;export' {
            [CompletionResult]::new('--otlp', '--otlp', [CompletionResultType]::ParameterName, 'An OTLP/HTTP collector: http://host:4318 (spans go to /v1/traces) or the full traces URL')
            [CompletionResult]::new('--syslog', '--syslog', [CompletionResultType]::ParameterName, 'A syslog receiver: udp://host:port, tcp://host:port or unix:///path')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Seconds between rounds with --follow [default: aigent.toml, else 5]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for a collector [default: aigent.toml, else 5]')
            [CompletionResult]::new('--rounds', '--rounds', [CompletionResultType]::ParameterName, 'Stop --follow after this many rounds (tests)')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep exporting new records every --interval seconds until stopped')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;audit;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print audit records, oldest first, filtered by command, event, time or request')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain of the audit log and its rotated files')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Signing keys for checkpoints in the audit log')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;audit;help;show' {
            break
        }
        'aigent;audit;help;verify' {
            break
        }
        'aigent;audit;help;key' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)')
            break
        }
        'aigent;audit;help;key;new' {
            break
        }
        'aigent;audit;help;export' {
            break
        }
        'aigent;audit;help;help' {
            break
        }
        'aigent;hook' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'The client whose hook event arrives on stdin')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'Rewrite a matched command into `aigent run NAME ...` where the client can rewrite it')
            [CompletionResult]::new('--headless', '--headless', [CompletionResultType]::ParameterName, 'Answer an ask as a deny that says how to approve (for headless runs, where nobody can answer a prompt)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show how the hook judges a command line: each segment''s verdict and rule')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add aigent''s hook to a client''s settings file (runs before each shell command)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Take aigent''s hook out of a client''s settings file')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check that the installed hook runs: its program exists and answers a probe event')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Let the hook read this project''s registry (its content as it is now)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Propose declarations for the commands the hook asked about, from the audit log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;hook;explain' {
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The working directory the command would run in [default: the current one]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;install' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'The client whose settings file to edit')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Whose settings: the project''s (shared through the repository) or yours (every project)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s root directory, for --scope project [default: the current directory]')
            [CompletionResult]::new('--program', '--program', [CompletionResultType]::ParameterName, 'The aigent the entry runs [default: this aigent, by absolute path]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a unified diff and write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Edit a settings file that has other names (hard links); the others keep the old content')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Rewrite an aigent entry that runs another command (another path or registry)')
            [CompletionResult]::new('--route', '--route', [CompletionResultType]::ParameterName, 'The entry routes matched commands through `aigent run` (hook --route)')
            [CompletionResult]::new('--headless', '--headless', [CompletionResultType]::ParameterName, 'The entry answers an ask as a deny that says how to approve (hook --headless): for clients run headless, such as `gemini -p`, where an ask would wait for nobody')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;uninstall' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'The client whose settings file to edit')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Whose settings: the project''s (shared through the repository) or yours (every project)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s root directory, for --scope project [default: the current directory]')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the change as a unified diff and write nothing')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Edit a settings file that has other names (hard links); the others keep the old content')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;doctor' {
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'The client whose settings file to check')
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Whose settings: the project''s or yours')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'The project''s root directory [default: the current directory]')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;trust' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--check', '--check', [CompletionResultType]::ParameterName, 'Only say whether it is trusted (exit 1 when not); record nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;learn' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only decisions at or after TIME: RFC 3339, a date, or an age (30m, 2h, 7d)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only decisions of this client session')
            [CompletionResult]::new('--client', '--client', [CompletionResultType]::ParameterName, 'Only decisions of this client')
            [CompletionResult]::new('--program', '--program', [CompletionResultType]::ParameterName, 'Only lines of this program (its name, as `git` or `cargo`)')
            [CompletionResult]::new('--min-count', '--min-count', [CompletionResultType]::ParameterName, 'Propose only what was seen at least N times')
            [CompletionResult]::new('--from-claude-settings', '--from-claude-settings', [CompletionResultType]::ParameterName, 'Learn from the Bash(...) rules of a Claude Code settings file: the logged lines each rule admitted, and what else it admits')
            [CompletionResult]::new('--class', '--class', [CompletionResultType]::ParameterName, 'The class of every proposal, as the person decides [default: the catalog''s, else discards_work]')
            [CompletionResult]::new('--cwd', '--cwd', [CompletionResultType]::ParameterName, 'The directory lines without one ran in [default: the current one]')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--from-lines', '--from-lines', [CompletionResultType]::ParameterName, 'Learn from command lines on stdin, one a line, instead of the audit log')
            [CompletionResult]::new('--write', '--write', [CompletionResultType]::ParameterName, 'Save the proposals into the project''s registry')
            [CompletionResult]::new('--review', '--review', [CompletionResultType]::ParameterName, 'Ask about each proposal on a terminal (accept, skip, change class), then save the accepted ones')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'With --write or --review, replace a declaration of the same name')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;hook;help' {
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show how the hook judges a command line: each segment''s verdict and rule')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add aigent''s hook to a client''s settings file (runs before each shell command)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Take aigent''s hook out of a client''s settings file')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check that the installed hook runs: its program exists and answers a probe event')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Let the hook read this project''s registry (its content as it is now)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Propose declarations for the commands the hook asked about, from the audit log')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;hook;help;explain' {
            break
        }
        'aigent;hook;help;install' {
            break
        }
        'aigent;hook;help;uninstall' {
            break
        }
        'aigent;hook;help;doctor' {
            break
        }
        'aigent;hook;help;trust' {
            break
        }
        'aigent;hook;help;learn' {
            break
        }
        'aigent;hook;help;help' {
            break
        }
        'aigent;mcp' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;mcp;serve' {
            [CompletionResult]::new('--skills', '--skills', [CompletionResultType]::ParameterName, 'Serve the skills found below DIR (repeatable)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Kill a call''s whole process group after SECS seconds (fractions allowed)')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]')
            [CompletionResult]::new('--max-output', '--max-output', [CompletionResultType]::ParameterName, 'Keep at most BYTES of each of a call''s stdout and stderr')
            [CompletionResult]::new('--state-key-file', '--state-key-file', [CompletionResultType]::ParameterName, 'Seal confirmation states with the key in PATH (32 bytes or more), so that servers sharing it accept each other''s retries [default: a random key per process]')
            [CompletionResult]::new('--sandbox', '--sandbox', [CompletionResultType]::ParameterName, 'How strictly each call enforces its command''s sandbox [default: the registry''s aigent.toml [sandbox] mode, read at each call, else best-effort]')
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP on ADDR (path /mcp) instead of stdio')
            [CompletionResult]::new('--token-file', '--token-file', [CompletionResultType]::ParameterName, 'Read the bearer token every HTTP request must carry from PATH')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Read the bearer token every HTTP request must carry from the environment variable VAR')
            [CompletionResult]::new('--allowed-host', '--allowed-host', [CompletionResultType]::ParameterName, 'A host name clients reach the server by (the Host header), beyond localhost (repeatable)')
            [CompletionResult]::new('--allowed-origin', '--allowed-origin', [CompletionResultType]::ParameterName, 'A browser origin allowed to call, e.g. https://app.example.com:443 (repeatable; any other Origin gets 403)')
            [CompletionResult]::new('--oauth-authorization-server', '--oauth-authorization-server', [CompletionResultType]::ParameterName, 'Publish OAuth protected-resource metadata (RFC 9728) naming URL as the authorization server that issues tokens for this server (repeatable; needs --oauth-resource)')
            [CompletionResult]::new('--oauth-resource', '--oauth-resource', [CompletionResultType]::ParameterName, 'The URL clients reach this server''s MCP endpoint by, as the OAuth metadata''s `resource` (e.g. https://mcp.example.com/mcp)')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Serve at most N HTTP connections that have shown the token; a request over it gets 503')
            [CompletionResult]::new('--max-unauthenticated-connections', '--max-unauthenticated-connections', [CompletionResultType]::ParameterName, 'Hold at most N HTTP connections that have not shown the token; a new one over it closes the oldest of them read from')
            [CompletionResult]::new('--read-timeout', '--read-timeout', [CompletionResultType]::ParameterName, 'Give each HTTP request SECS for its headers, and SECS again for its body [default: 10 and 30]')
            [CompletionResult]::new('--max-argument-bytes', '--max-argument-bytes', [CompletionResultType]::ParameterName, 'Refuse a tools/call whose arguments are over BYTES of JSON (-32602)')
            [CompletionResult]::new('--max-argument-values', '--max-argument-values', [CompletionResultType]::ParameterName, 'Refuse a tools/call whose arguments hold over N JSON values, object keys counted (-32602)')
            [CompletionResult]::new('--max-calls', '--max-calls', [CompletionResultType]::ParameterName, 'Run at most N calls at once; a call over it waits in line for a place')
            [CompletionResult]::new('--max-queued-calls', '--max-queued-calls', [CompletionResultType]::ParameterName, 'Let at most N calls wait for a place; a call over it is refused with a retryable error')
            [CompletionResult]::new('--queue-timeout', '--queue-timeout', [CompletionResultType]::ParameterName, 'Refuse a call, with a retryable error, once it has waited SECS for a place [default: 30]')
            [CompletionResult]::new('--drain', '--drain', [CompletionResultType]::ParameterName, 'On shutdown (stdin closed, SIGTERM, SIGINT, SIGHUP), let calls in flight run up to SECS more before cancelling them')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--confirm-destructive', '--confirm-destructive', [CompletionResultType]::ParameterName, 'Run destructive tools without asking the client first (unattended use)')
            [CompletionResult]::new('--allow-remote', '--allow-remote', [CompletionResultType]::ParameterName, 'Allow --http on an address that is not loopback')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;mcp;help' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;mcp;help;serve' {
            break
        }
        'aigent;mcp;help;help' {
            break
        }
        'aigent;lsp' {
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;completions' {
            [CompletionResult]::new('--commands', '--commands', [CompletionResultType]::ParameterName, 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)')
            [CompletionResult]::new('--static', '--static', [CompletionResultType]::ParameterName, 'A self-contained script that never calls aigent back')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only problems: no `ok` lines, no summaries')
            [CompletionResult]::new('--schema', '--schema', [CompletionResultType]::ParameterName, 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'aigent;help' {
            [CompletionResult]::new('generate', 'generate', [CompletionResultType]::ParameterValue, 'Write man pages or static completion scripts (for packagers)')
            [CompletionResult]::new('skill', 'skill', [CompletionResultType]::ParameterValue, 'Validate, scaffold, inspect and render Agent Skills')
            [CompletionResult]::new('plugin', 'plugin', [CompletionResultType]::ParameterValue, 'Validate Claude Code plugins and marketplaces')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'The registry of declared commands: list, show, lint')
            [CompletionResult]::new('args', 'args', [CompletionResultType]::ParameterValue, 'Check an agent''s arguments against a declared command')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command''s own, or with --capture the envelope holding it')
            [CompletionResult]::new('audit', 'audit', [CompletionResultType]::ParameterValue, 'Read and check the audit log: show records, verify the hash chain')
            [CompletionResult]::new('hook', 'hook', [CompletionResultType]::ParameterValue, 'Guard the agents'' own shell tools: the hook itself, install, explain')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve declared commands and skills to MCP clients')
            [CompletionResult]::new('lsp', 'lsp', [CompletionResultType]::ParameterValue, 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aigent;help;generate' {
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Man pages: aigent.1 and one page per subcommand')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Static completion scripts for every supported shell')
            [CompletionResult]::new('reference', 'reference', [CompletionResultType]::ParameterValue, 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level')
            break
        }
        'aigent;help;generate;man' {
            break
        }
        'aigent;help;generate;completions' {
            break
        }
        'aigent;help;generate;reference' {
            break
        }
        'aigent;help;skill' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check skill directories against the Agent Skills rules')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Create a new skill: prompts on a terminal, flags everywhere else')
            [CompletionResult]::new('fmt', 'fmt', [CompletionResultType]::ParameterValue, 'Put frontmatter into canonical form (key order, quoting, indentation)')
            [CompletionResult]::new('fix', 'fix', [CompletionResultType]::ParameterValue, 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)')
            [CompletionResult]::new('read-properties', 'read-properties', [CompletionResultType]::ParameterValue, 'Print a skill''s frontmatter properties as JSON')
            [CompletionResult]::new('to-prompt', 'to-prompt', [CompletionResultType]::ParameterValue, 'Print the <available_skills> XML block that agents load')
            [CompletionResult]::new('contracts', 'contracts', [CompletionResultType]::ParameterValue, 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations')
            break
        }
        'aigent;help;skill;validate' {
            break
        }
        'aigent;help;skill;new' {
            break
        }
        'aigent;help;skill;fmt' {
            break
        }
        'aigent;help;skill;fix' {
            break
        }
        'aigent;help;skill;read-properties' {
            break
        }
        'aigent;help;skill;to-prompt' {
            break
        }
        'aigent;help;skill;contracts' {
            break
        }
        'aigent;help;plugin' {
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check plugins and marketplaces: manifests, sources, skills, components')
            break
        }
        'aigent;help;plugin;validate' {
            break
        }
        'aigent;help;schema' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the declared commands')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one command''s declaration or JSON Schema')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Lint every declaration in the registry')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write declarations as an agent''s own policy rules, with what each keeps and drops')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)')
            break
        }
        'aigent;help;schema;list' {
            break
        }
        'aigent;help;schema;show' {
            break
        }
        'aigent;help;schema;lint' {
            break
        }
        'aigent;help;schema;export' {
            break
        }
        'aigent;help;schema;import' {
            break
        }
        'aigent;help;args' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Validate arguments for a declared command (Phase 1 only; runs nothing)')
            break
        }
        'aigent;help;args;check' {
            break
        }
        'aigent;help;run' {
            break
        }
        'aigent;help;audit' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print audit records, oldest first, filtered by command, event, time or request')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain of the audit log and its rotated files')
            [CompletionResult]::new('key', 'key', [CompletionResultType]::ParameterValue, 'Signing keys for checkpoints in the audit log')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped')
            break
        }
        'aigent;help;audit;show' {
            break
        }
        'aigent;help;audit;verify' {
            break
        }
        'aigent;help;audit;key' {
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)')
            break
        }
        'aigent;help;audit;key;new' {
            break
        }
        'aigent;help;audit;export' {
            break
        }
        'aigent;help;hook' {
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Show how the hook judges a command line: each segment''s verdict and rule')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Add aigent''s hook to a client''s settings file (runs before each shell command)')
            [CompletionResult]::new('uninstall', 'uninstall', [CompletionResultType]::ParameterValue, 'Take aigent''s hook out of a client''s settings file')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check that the installed hook runs: its program exists and answers a probe event')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Let the hook read this project''s registry (its content as it is now)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Propose declarations for the commands the hook asked about, from the audit log')
            break
        }
        'aigent;help;hook;explain' {
            break
        }
        'aigent;help;hook;install' {
            break
        }
        'aigent;help;hook;uninstall' {
            break
        }
        'aigent;help;hook;doctor' {
            break
        }
        'aigent;help;hook;trust' {
            break
        }
        'aigent;help;hook;learn' {
            break
        }
        'aigent;help;mcp' {
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)')
            break
        }
        'aigent;help;mcp;serve' {
            break
        }
        'aigent;help;lsp' {
            break
        }
        'aigent;help;completions' {
            break
        }
        'aigent;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
