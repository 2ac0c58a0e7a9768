#!/usr/bin/env bash
# The MCP conformance suite (npm @modelcontextprotocol/conformance) against
# `aigent mcp serve --http`, behind a proxy that adds the bearer token (the
# suite's client sends none, and aigent serves nothing without it).
#
#   scripts/mcp-conformance.sh [SCENARIO]
#
# The registry is a handful of declared commands named as the suite's
# scenarios expect (test_simple_text, test_tool_with_logging, ...), each a
# real program run through the guard, and one skill. The scenarios that
# cannot apply to aigent are listed, with why, in
# scripts/mcp-conformance-expected.yml: the run fails if any other
# scenario fails, or if one of those starts to pass. Needs Node 22 or
# later (the suite's own requirement; otherwise the `node` package from the
# npm registry is used) and the npm registry. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
version="${CONFORMANCE_VERSION:-0.1.16}"
scenario=()
if [ $# -gt 0 ]; then scenario=(--scenario "$1"); fi

cargo build --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/aigent"
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" XDG_STATE_HOME="$work/state" AIGENT_AUDIT_LOG="$work/audit.jsonl"
mkdir -p "$HOME" "$work/commands" "$work/scripts" "$work/skills/greeting"
head -c 32 /dev/urandom | base64 | tr -d '\n' >"$work/token"
chmod 600 "$work/token"

declaration() { printf '%s\n' "$2" >"$work/commands/$1.yaml"; }
script() { printf '%s\n' "$2" >"$work/scripts/$1.sh"; }
script error 'echo "This tool intentionally returns an error for testing" >&2; exit 1'
script logging 'for step in starting working done; do echo "$step" >&2; sleep 0.05; done; echo logged'
declaration test_simple_text "name: test_simple_text
description: Returns a simple text response
danger_level: safe
parameters: {}
subprocess: {binary: printf, hardcoded_args: ['This is a simple text response for testing.'], user_controlled_args: []}"
declaration test_error_handling "name: test_error_handling
description: Always fails
danger_level: safe
parameters: {}
subprocess: {binary: sh, hardcoded_args: ['$work/scripts/error.sh'], user_controlled_args: []}"
declaration test_tool_with_logging "name: test_tool_with_logging
description: Writes three lines to stderr, streamed as log messages
danger_level: safe
parameters: {}
subprocess: {binary: sh, hardcoded_args: ['$work/scripts/logging.sh'], user_controlled_args: []}"
declaration test_tool_with_progress "name: test_tool_with_progress
description: Runs for three and a half seconds, with progress every second
danger_level: safe
parameters: {}
subprocess: {binary: sleep, hardcoded_args: ['3.5'], user_controlled_args: []}"
declaration test_simple_prompt "name: test_simple_prompt
description: A prompt without arguments
danger_level: safe
parameters: {}
subprocess: {binary: 'true', hardcoded_args: [], user_controlled_args: []}"
declaration test_prompt_with_arguments "name: test_prompt_with_arguments
description: A prompt with two arguments
danger_level: safe
parameters:
  arg1: {type: string, required: true, description: First test argument, pattern: '^[A-Za-z0-9]{1,32}\$'}
  arg2: {type: string, required: true, description: Second test argument, pattern: '^[A-Za-z0-9]{1,32}\$'}
subprocess: {binary: echo, hardcoded_args: [], user_controlled_args: [arg1, arg2]}"
printf -- '---\nname: greeting\ndescription: How to greet people\n---\n\nSay hello, then your name.\n' \
  >"$work/skills/greeting/SKILL.md"

"$bin" --commands "$work/commands" mcp serve --skills "$work/skills" \
  --http 127.0.0.1:0 --token-file "$work/token" --allowed-origin 'http://localhost:*' \
  2>"$work/server.log" &
pids+=("$!")
# The port a log names (sed SCRIPT), waiting up to TENTHS tenths of a second.
port_in() { # LOG SCRIPT TENTHS
  local found=""
  for _ in $(seq "$3"); do
    found="$(sed -n "$2" "$1")"
    [ -n "$found" ] && { echo "$found"; return; }
    sleep 0.1
  done
  cat "$1" >&2
  exit 1
}
port="$(port_in "$work/server.log" 's|.*listening on http://127.0.0.1:\([0-9]*\)/mcp.*|\1|p' 100)"

# Node 22 or later, from PATH or the npm registry.
node_major="$(node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/' || echo 0)"
if [ "${node_major:-0}" -ge 22 ]; then
  run=(npx --yes --package="@modelcontextprotocol/conformance@$version" --)
else
  run=(npm exec --yes --package=node@22 --package="@modelcontextprotocol/conformance@$version" --)
fi
"${run[@]}" node scripts/mcp-conformance-proxy.mjs "$port" "$work/token" >"$work/proxy.log" 2>&1 &
pids+=("$!")
proxy_port="$(port_in "$work/proxy.log" 's/^proxy listening on \([0-9]*\)$/\1/p' 600)"

cd "$work"
"${run[@]}" conformance server --url "http://localhost:$proxy_port/mcp" \
  --expected-failures "$OLDPWD/scripts/mcp-conformance-expected.yml" "${scenario[@]}"
