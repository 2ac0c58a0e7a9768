
use builtin;
use str;

set edit:completion:arg-completer[aigent] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'aigent'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'aigent'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand generate 'Write man pages or static completion scripts (for packagers)'
            cand skill 'Validate, scaffold, inspect and render Agent Skills'
            cand plugin 'Validate Claude Code plugins and marketplaces'
            cand schema 'The registry of declared commands: list, show, lint'
            cand args 'Check an agent''s arguments against a declared command'
            cand run 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command''s own, or with --capture the envelope holding it'
            cand audit 'Read and check the audit log: show records, verify the hash chain'
            cand hook 'Guard the agents'' own shell tools: the hook itself, install, explain'
            cand mcp 'Serve declared commands and skills to MCP clients'
            cand lsp 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;generate'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand man 'Man pages: aigent.1 and one page per subcommand'
            cand completions 'Static completion scripts for every supported shell'
            cand reference 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;generate;man'= {
            cand --out-dir 'The directory to write into (created if missing)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;generate;completions'= {
            cand --out-dir 'The directory to write into (created if missing)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;generate;reference'= {
            cand --out-dir 'The directory to write into (created if missing)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;generate;help'= {
            cand man 'Man pages: aigent.1 and one page per subcommand'
            cand completions 'Static completion scripts for every supported shell'
            cand reference 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;generate;help;man'= {
        }
        &'aigent;generate;help;completions'= {
        }
        &'aigent;generate;help;reference'= {
        }
        &'aigent;generate;help;help'= {
        }
        &'aigent;skill'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand validate 'Check skill directories against the Agent Skills rules'
            cand new 'Create a new skill: prompts on a terminal, flags everywhere else'
            cand fmt 'Put frontmatter into canonical form (key order, quoting, indentation)'
            cand fix 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
            cand read-properties 'Print a skill''s frontmatter properties as JSON'
            cand to-prompt 'Print the <available_skills> XML block that agents load'
            cand contracts 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;skill;validate'= {
            cand --profile 'Which client''s view to take: its frontmatter keys count as known, and its stricter rules apply (docs/reference/client-profiles.md). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard'
            cand --base 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]'
            cand --compare-to 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)'
            cand --limit 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]'
            cand --cursor 'Continue a listing where its last page ended (`meta.cursor`)'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -r 'Validate every skill below each PATH (hidden directories included; .git, node_modules and target skipped)'
            cand --recursive 'Validate every skill below each PATH (hidden directories included; .git, node_modules and target skipped)'
            cand --strict 'Treat warnings as errors'
            cand --changed 'Check only what this branch changed (git): since the merge base with the base revision'
            cand --watch 'Validate again whenever a file below the PATHs changes, printing only the findings that appeared or went away; Ctrl-C stops'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;new'= {
            cand --name 'The skill''s name [default: PATH''s last component]'
            cand --description 'What the skill does and when to use it (at most 1024 characters)'
            cand --license 'A license: an SPDX id (MIT, Apache-2.0) or a short text'
            cand --compatibility 'Environment requirements, e.g. "Needs git and network access"'
            cand --allowed-tools 'Tools the skill may use, space-separated, e.g. "Read Bash(git:*)"'
            cand --with 'Subdirectories to create, each with a starter file the body links to (a comma list, or repeat the flag)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -y 'Do not ask anything: take every answer from the flags'
            cand --yes 'Do not ask anything: take every answer from the flags'
            cand --non-interactive 'Never ask: without --yes, exit 4 (INPUT_REQUIRED) instead of prompting, even on a terminal'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;fmt'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -r 'Format every skill below each PATH'
            cand --recursive 'Format every skill below each PATH'
            cand --check 'Write nothing; exit 1 if any file would change'
            cand --diff 'Write nothing; print the change as a unified diff (implies --check)'
            cand --force 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user''s); refused without it'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;fix'= {
            cand --profile 'Which frontmatter keys count as known (the others move to metadata, except a key some client reads, which never moves). Without it, a skill inside a .claude/ directory or a Claude Code plugin gets claude-code, any other standard'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -r 'Fix every skill below each PATH'
            cand --recursive 'Fix every skill below each PATH'
            cand --dry-run 'Show the diffs; write nothing'
            cand --rename-dir 'Rename a skill directory whose name is not a valid name to the proposed one (never over an existing name), then fix its name'
            cand --force 'Replace a file that has other hard links (they keep the old contents) or whose owner and group cannot be kept (it becomes this user''s); refused without it'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;read-properties'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;to-prompt'= {
            cand --max-tokens 'Fail (exit 1) when the listing is over N tokens (o200k_base)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -r 'List every skill below each PATH (as skill validate --recursive finds them)'
            cand --recursive 'List every skill below each PATH (as skill validate --recursive finds them)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;contracts'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -r 'Search each directory for skills at any depth'
            cand --recursive 'Search each directory for skills at any depth'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;skill;help'= {
            cand validate 'Check skill directories against the Agent Skills rules'
            cand new 'Create a new skill: prompts on a terminal, flags everywhere else'
            cand fmt 'Put frontmatter into canonical form (key order, quoting, indentation)'
            cand fix 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
            cand read-properties 'Print a skill''s frontmatter properties as JSON'
            cand to-prompt 'Print the <available_skills> XML block that agents load'
            cand contracts 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;skill;help;validate'= {
        }
        &'aigent;skill;help;new'= {
        }
        &'aigent;skill;help;fmt'= {
        }
        &'aigent;skill;help;fix'= {
        }
        &'aigent;skill;help;read-properties'= {
        }
        &'aigent;skill;help;to-prompt'= {
        }
        &'aigent;skill;help;contracts'= {
        }
        &'aigent;skill;help;help'= {
        }
        &'aigent;plugin'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand validate 'Check plugins and marketplaces: manifests, sources, skills, components'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;plugin;validate'= {
            cand --profile 'Which extra frontmatter keys count as known in the plugins'' skills'
            cand --base 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]'
            cand --compare-to 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --strict 'Treat warnings as errors'
            cand --changed 'Check only what this branch changed (git): since the merge base with the base revision'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;plugin;help'= {
            cand validate 'Check plugins and marketplaces: manifests, sources, skills, components'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;plugin;help;validate'= {
        }
        &'aigent;plugin;help;help'= {
        }
        &'aigent;schema'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand list 'List the declared commands'
            cand show 'Show one command''s declaration or JSON Schema'
            cand lint 'Lint every declaration in the registry'
            cand export 'Write declarations as an agent''s own policy rules, with what each keeps and drops'
            cand import 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;schema;list'= {
            cand --limit 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]'
            cand --cursor 'Continue a listing where its last page ended (`meta.cursor`)'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;schema;show'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;schema;lint'= {
            cand --base 'The revision to compare with [default: the upstream, else origin/HEAD, main, master]'
            cand --compare-to 'What counts as changed: committed, staged, unstaged and untracked work (work-tree), committed and staged (index), or committed only (head, the fastest)'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --changed 'Check only what this branch changed (git): since the merge base with the base revision'
            cand --watch 'Lint again whenever a file in the --commands directory changes, printing only the findings that appeared or went away; Ctrl-C stops'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;schema;export'= {
            cand --to 'The policy language to write'
            cand --out-file 'Write the document to FILE instead of stdout'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --force 'Replace FILE when it exists'
            cand --allow-partial 'Write the rules that can be written when some declaration cannot be exported'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;schema;import'= {
            cand --from 'The spec''s format'
            cand --program 'The program the declarations run (the spec''s `bin` for usage; required for agent-spec, whose manifest does not name it)'
            cand --out-dir 'The directory to write into [default: the --commands registry]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --force 'Replace existing NAME.json declarations of the same names'
            cand --dry-run 'Write nothing; report what would be written'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;schema;help'= {
            cand list 'List the declared commands'
            cand show 'Show one command''s declaration or JSON Schema'
            cand lint 'Lint every declaration in the registry'
            cand export 'Write declarations as an agent''s own policy rules, with what each keeps and drops'
            cand import 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;schema;help;list'= {
        }
        &'aigent;schema;help;show'= {
        }
        &'aigent;schema;help;lint'= {
        }
        &'aigent;schema;help;export'= {
        }
        &'aigent;schema;help;import'= {
        }
        &'aigent;schema;help;help'= {
        }
        &'aigent;args'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;args;check'= {
            cand --audit-log 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --value-from-env 'Take the sensitive parameter PARAM''s value from the environment variable VAR (repeatable)'
            cand --value-from-file 'Take the sensitive parameter PARAM''s value from the file PATH, without its final newline (repeatable)'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --no-audit 'Write no audit record of a rejection (args check runs nothing)'
            cand --allow-secret-argv 'Accept a sensitive parameter''s value among the arguments, with a warning (refused otherwise: `ps` shows aigent''s command line to every local user)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;args;help'= {
            cand check 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;args;help;check'= {
        }
        &'aigent;args;help;help'= {
        }
        &'aigent;run'= {
            cand --timeout 'Kill the command''s whole process group after SECS seconds (fractions allowed) and exit 10 [default: the declaration''s timeout_s, else 600]'
            cand --audit-log 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --result 'Write the json envelope to PATH (atomically, in any format) instead of stderr'
            cand --heartbeat-ms 'With --capture in json mode: while the command runs, write a heartbeat line on stdout every MS milliseconds (at least 1000), before the envelope: {"status":"running","heartbeat":true,"elapsed_ms":N}'
            cand --sandbox 'How strictly to enforce the command''s sandbox [default: aigent.toml''s [sandbox] mode, else best-effort]'
            cand --value-from-env 'Take the sensitive parameter PARAM''s value from the environment variable VAR (repeatable)'
            cand --value-from-file 'Take the sensitive parameter PARAM''s value from the file PATH, without its final newline (repeatable)'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --dry-run 'Print the argv that would run, and run nothing'
            cand --confirm-destructive 'Run a command declared destructive (refused with exit 2 without this)'
            cand --capture 'Return the command''s stdout and stderr in the envelope (data.stdout, data.stderr), which then goes to stdout; without it stdout is the command''s own and the envelope goes to stderr'
            cand --allow-secret-argv 'Accept a sensitive parameter''s value among the arguments, with a warning (refused otherwise: `ps` shows aigent''s command line to every local user)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;audit'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Print audit records, oldest first, filtered by command, event, time or request'
            cand verify 'Check the hash chain of the audit log and its rotated files'
            cand key 'Signing keys for checkpoints in the audit log'
            cand export 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;audit;show'= {
            cand --command 'Only records of this declared command'
            cand --event 'Only records of this event (COMMAND_STARTED, COMMAND_EXECUTED, TOOL_ARG_VALIDATION_FAILURE, ...)'
            cand --since 'Only records at or after TIME: RFC 3339 (2026-11-23T09:00:00Z), a date, or an age (30m, 2h, 7d)'
            cand --request-id 'Only records of this request (the `request_id` in every envelope''s meta)'
            cand --last 'Only the last N matching records'
            cand --limit 'At most N items (0: no limit) [default: 20 in json and jsonl, else all]'
            cand --cursor 'Continue a listing where its last page ended (`meta.cursor`)'
            cand --audit-log 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;audit;verify'= {
            cand --audit-log 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --expect-head 'Fail unless this head (SHA256, or SEQ:SHA256 as --print-head prints it) is still in the chain'
            cand --expect-seq 'Fail unless the chain still reaches record N'
            cand --public-key 'Also check the signed checkpoints with this public key (from `audit key new`), and report the last'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --print-head 'Print only the head, as one line SEQ:SHA256, for storing elsewhere'
            cand --allow-legacy-prefix 'Accept lines before the first chained record (records an older aigent wrote before it kept a chain)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;audit;key'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand new 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;audit;key;new'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;audit;key;help'= {
            cand new 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;audit;key;help;new'= {
        }
        &'aigent;audit;key;help;help'= {
        }
        &'aigent;audit;export'= {
            cand --otlp 'An OTLP/HTTP collector: http://host:4318 (spans go to /v1/traces) or the full traces URL'
            cand --syslog 'A syslog receiver: udp://host:port, tcp://host:port or unix:///path'
            cand --interval 'Seconds between rounds with --follow [default: aigent.toml, else 5]'
            cand --timeout 'Seconds to wait for a collector [default: aigent.toml, else 5]'
            cand --rounds 'Stop --follow after this many rounds (tests)'
            cand --audit-log 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --follow 'Keep exporting new records every --interval seconds until stopped'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;audit;help'= {
            cand show 'Print audit records, oldest first, filtered by command, event, time or request'
            cand verify 'Check the hash chain of the audit log and its rotated files'
            cand key 'Signing keys for checkpoints in the audit log'
            cand export 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;audit;help;show'= {
        }
        &'aigent;audit;help;verify'= {
        }
        &'aigent;audit;help;key'= {
            cand new 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)'
        }
        &'aigent;audit;help;key;new'= {
        }
        &'aigent;audit;help;export'= {
        }
        &'aigent;audit;help;help'= {
        }
        &'aigent;hook'= {
            cand --client 'The client whose hook event arrives on stdin'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --route 'Rewrite a matched command into `aigent run NAME ...` where the client can rewrite it'
            cand --headless 'Answer an ask as a deny that says how to approve (for headless runs, where nobody can answer a prompt)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand explain 'Show how the hook judges a command line: each segment''s verdict and rule'
            cand install 'Add aigent''s hook to a client''s settings file (runs before each shell command)'
            cand uninstall 'Take aigent''s hook out of a client''s settings file'
            cand doctor 'Check that the installed hook runs: its program exists and answers a probe event'
            cand trust 'Let the hook read this project''s registry (its content as it is now)'
            cand learn 'Propose declarations for the commands the hook asked about, from the audit log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;hook;explain'= {
            cand --cwd 'The working directory the command would run in [default: the current one]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;install'= {
            cand --client 'The client whose settings file to edit'
            cand --scope 'Whose settings: the project''s (shared through the repository) or yours (every project)'
            cand --project 'The project''s root directory, for --scope project [default: the current directory]'
            cand --program 'The aigent the entry runs [default: this aigent, by absolute path]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --dry-run 'Print the change as a unified diff and write nothing'
            cand --force 'Edit a settings file that has other names (hard links); the others keep the old content'
            cand --replace 'Rewrite an aigent entry that runs another command (another path or registry)'
            cand --route 'The entry routes matched commands through `aigent run` (hook --route)'
            cand --headless 'The entry answers an ask as a deny that says how to approve (hook --headless): for clients run headless, such as `gemini -p`, where an ask would wait for nobody'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;uninstall'= {
            cand --client 'The client whose settings file to edit'
            cand --scope 'Whose settings: the project''s (shared through the repository) or yours (every project)'
            cand --project 'The project''s root directory, for --scope project [default: the current directory]'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --dry-run 'Print the change as a unified diff and write nothing'
            cand --force 'Edit a settings file that has other names (hard links); the others keep the old content'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;doctor'= {
            cand --client 'The client whose settings file to check'
            cand --scope 'Whose settings: the project''s or yours'
            cand --project 'The project''s root directory [default: the current directory]'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;trust'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --check 'Only say whether it is trusted (exit 1 when not); record nothing'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;learn'= {
            cand --since 'Only decisions at or after TIME: RFC 3339, a date, or an age (30m, 2h, 7d)'
            cand --session 'Only decisions of this client session'
            cand --client 'Only decisions of this client'
            cand --program 'Only lines of this program (its name, as `git` or `cargo`)'
            cand --min-count 'Propose only what was seen at least N times'
            cand --from-claude-settings 'Learn from the Bash(...) rules of a Claude Code settings file: the logged lines each rule admitted, and what else it admits'
            cand --class 'The class of every proposal, as the person decides [default: the catalog''s, else discards_work]'
            cand --cwd 'The directory lines without one ran in [default: the current one]'
            cand --audit-log 'The audit log [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --from-lines 'Learn from command lines on stdin, one a line, instead of the audit log'
            cand --write 'Save the proposals into the project''s registry'
            cand --review 'Ask about each proposal on a terminal (accept, skip, change class), then save the accepted ones'
            cand --force 'With --write or --review, replace a declaration of the same name'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;hook;help'= {
            cand explain 'Show how the hook judges a command line: each segment''s verdict and rule'
            cand install 'Add aigent''s hook to a client''s settings file (runs before each shell command)'
            cand uninstall 'Take aigent''s hook out of a client''s settings file'
            cand doctor 'Check that the installed hook runs: its program exists and answers a probe event'
            cand trust 'Let the hook read this project''s registry (its content as it is now)'
            cand learn 'Propose declarations for the commands the hook asked about, from the audit log'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;hook;help;explain'= {
        }
        &'aigent;hook;help;install'= {
        }
        &'aigent;hook;help;uninstall'= {
        }
        &'aigent;hook;help;doctor'= {
        }
        &'aigent;hook;help;trust'= {
        }
        &'aigent;hook;help;learn'= {
        }
        &'aigent;hook;help;help'= {
        }
        &'aigent;mcp'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand serve 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;mcp;serve'= {
            cand --skills 'Serve the skills found below DIR (repeatable)'
            cand --timeout 'Kill a call''s whole process group after SECS seconds (fractions allowed)'
            cand --audit-log 'Append audit records here [default: AIGENT_AUDIT_LOG, else $XDG_STATE_HOME/aigent/audit.jsonl]'
            cand --max-output 'Keep at most BYTES of each of a call''s stdout and stderr'
            cand --state-key-file 'Seal confirmation states with the key in PATH (32 bytes or more), so that servers sharing it accept each other''s retries [default: a random key per process]'
            cand --sandbox 'How strictly each call enforces its command''s sandbox [default: the registry''s aigent.toml [sandbox] mode, read at each call, else best-effort]'
            cand --http 'Serve Streamable HTTP on ADDR (path /mcp) instead of stdio'
            cand --token-file 'Read the bearer token every HTTP request must carry from PATH'
            cand --token-env 'Read the bearer token every HTTP request must carry from the environment variable VAR'
            cand --allowed-host 'A host name clients reach the server by (the Host header), beyond localhost (repeatable)'
            cand --allowed-origin 'A browser origin allowed to call, e.g. https://app.example.com:443 (repeatable; any other Origin gets 403)'
            cand --oauth-authorization-server 'Publish OAuth protected-resource metadata (RFC 9728) naming URL as the authorization server that issues tokens for this server (repeatable; needs --oauth-resource)'
            cand --oauth-resource 'The URL clients reach this server''s MCP endpoint by, as the OAuth metadata''s `resource` (e.g. https://mcp.example.com/mcp)'
            cand --max-connections 'Serve at most N HTTP connections that have shown the token; a request over it gets 503'
            cand --max-unauthenticated-connections 'Hold at most N HTTP connections that have not shown the token; a new one over it closes the oldest of them read from'
            cand --read-timeout 'Give each HTTP request SECS for its headers, and SECS again for its body [default: 10 and 30]'
            cand --max-argument-bytes 'Refuse a tools/call whose arguments are over BYTES of JSON (-32602)'
            cand --max-argument-values 'Refuse a tools/call whose arguments hold over N JSON values, object keys counted (-32602)'
            cand --max-calls 'Run at most N calls at once; a call over it waits in line for a place'
            cand --max-queued-calls 'Let at most N calls wait for a place; a call over it is refused with a retryable error'
            cand --queue-timeout 'Refuse a call, with a retryable error, once it has waited SECS for a place [default: 30]'
            cand --drain 'On shutdown (stdin closed, SIGTERM, SIGINT, SIGHUP), let calls in flight run up to SECS more before cancelling them'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --confirm-destructive 'Run destructive tools without asking the client first (unattended use)'
            cand --allow-remote 'Allow --http on an address that is not loopback'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;mcp;help'= {
            cand serve 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;mcp;help;serve'= {
        }
        &'aigent;mcp;help;help'= {
        }
        &'aigent;lsp'= {
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;completions'= {
            cand --commands 'The registry of command declarations [default: the built-in catalog, then your user registry, then the project''s commands/ once trusted]'
            cand --output 'Output format [default: text on a terminal, json otherwise, and in CI or under NO_COLOR; AIGENT_OUTPUT sets another]'
            cand --color 'When to colour text output (under auto: not with NO_COLOR of any value, CI or TERM=dumb)'
            cand --static 'A self-contained script that never calls aigent back'
            cand -q 'Print only problems: no `ok` lines, no summaries'
            cand --quiet 'Print only problems: no `ok` lines, no summaries'
            cand --schema 'Print this command''s manifest entry (CLI Agent Spec) as JSON instead of running it'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'aigent;help'= {
            cand generate 'Write man pages or static completion scripts (for packagers)'
            cand skill 'Validate, scaffold, inspect and render Agent Skills'
            cand plugin 'Validate Claude Code plugins and marketplaces'
            cand schema 'The registry of declared commands: list, show, lint'
            cand args 'Check an agent''s arguments against a declared command'
            cand run 'Check the arguments, then run the declared command as an argv (never a shell); stdout is the command''s own, or with --capture the envelope holding it'
            cand audit 'Read and check the audit log: show records, verify the hash chain'
            cand hook 'Guard the agents'' own shell tools: the hook itself, install, explain'
            cand mcp 'Serve declared commands and skills to MCP clients'
            cand lsp 'Serve diagnostics, fixes, hover and completion to editors (Language Server Protocol)'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aigent;help;generate'= {
            cand man 'Man pages: aigent.1 and one page per subcommand'
            cand completions 'Static completion scripts for every supported shell'
            cand reference 'The Markdown reference tables that exist in code: skill, plugin and lint codes, error codes, exit codes and each command''s danger level'
        }
        &'aigent;help;generate;man'= {
        }
        &'aigent;help;generate;completions'= {
        }
        &'aigent;help;generate;reference'= {
        }
        &'aigent;help;skill'= {
            cand validate 'Check skill directories against the Agent Skills rules'
            cand new 'Create a new skill: prompts on a terminal, flags everywhere else'
            cand fmt 'Put frontmatter into canonical form (key order, quoting, indentation)'
            cand fix 'Make the mechanical repairs (quoting, allowed-tools, metadata, name)'
            cand read-properties 'Print a skill''s frontmatter properties as JSON'
            cand to-prompt 'Print the <available_skills> XML block that agents load'
            cand contracts 'Hold a skill''s Bash grants and !`cmd` commands against the registry; propose declarations'
        }
        &'aigent;help;skill;validate'= {
        }
        &'aigent;help;skill;new'= {
        }
        &'aigent;help;skill;fmt'= {
        }
        &'aigent;help;skill;fix'= {
        }
        &'aigent;help;skill;read-properties'= {
        }
        &'aigent;help;skill;to-prompt'= {
        }
        &'aigent;help;skill;contracts'= {
        }
        &'aigent;help;plugin'= {
            cand validate 'Check plugins and marketplaces: manifests, sources, skills, components'
        }
        &'aigent;help;plugin;validate'= {
        }
        &'aigent;help;schema'= {
            cand list 'List the declared commands'
            cand show 'Show one command''s declaration or JSON Schema'
            cand lint 'Lint every declaration in the registry'
            cand export 'Write declarations as an agent''s own policy rules, with what each keeps and drops'
            cand import 'Write declarations from a CLI''s own spec (CLI Agent Spec manifest, usage KDL)'
        }
        &'aigent;help;schema;list'= {
        }
        &'aigent;help;schema;show'= {
        }
        &'aigent;help;schema;lint'= {
        }
        &'aigent;help;schema;export'= {
        }
        &'aigent;help;schema;import'= {
        }
        &'aigent;help;args'= {
            cand check 'Validate arguments for a declared command (Phase 1 only; runs nothing)'
        }
        &'aigent;help;args;check'= {
        }
        &'aigent;help;run'= {
        }
        &'aigent;help;audit'= {
            cand show 'Print audit records, oldest first, filtered by command, event, time or request'
            cand verify 'Check the hash chain of the audit log and its rotated files'
            cand key 'Signing keys for checkpoints in the audit log'
            cand export 'Send the log to an OpenTelemetry collector or syslog, resuming where the last export stopped'
        }
        &'aigent;help;audit;show'= {
        }
        &'aigent;help;audit;verify'= {
        }
        &'aigent;help;audit;key'= {
            cand new 'Write a new Ed25519 key pair for signed checkpoints (private mode 0600, never printed)'
        }
        &'aigent;help;audit;key;new'= {
        }
        &'aigent;help;audit;export'= {
        }
        &'aigent;help;hook'= {
            cand explain 'Show how the hook judges a command line: each segment''s verdict and rule'
            cand install 'Add aigent''s hook to a client''s settings file (runs before each shell command)'
            cand uninstall 'Take aigent''s hook out of a client''s settings file'
            cand doctor 'Check that the installed hook runs: its program exists and answers a probe event'
            cand trust 'Let the hook read this project''s registry (its content as it is now)'
            cand learn 'Propose declarations for the commands the hook asked about, from the audit log'
        }
        &'aigent;help;hook;explain'= {
        }
        &'aigent;help;hook;install'= {
        }
        &'aigent;help;hook;uninstall'= {
        }
        &'aigent;help;hook;doctor'= {
        }
        &'aigent;help;hook;trust'= {
        }
        &'aigent;help;hook;learn'= {
        }
        &'aigent;help;mcp'= {
            cand serve 'Serve declared commands as guarded tools and validated skills over MCP (stdio or HTTP)'
        }
        &'aigent;help;mcp;serve'= {
        }
        &'aigent;help;lsp'= {
        }
        &'aigent;help;completions'= {
        }
        &'aigent;help;help'= {
        }
    ]
    $completions[$command]
}
