#!/usr/bin/env bash
# Installs the real agent clients that tests/it/real_clients/ drives, at
# pinned versions, from the npm registry:
#
#   @anthropic-ai/claude-code  (claude)
#   @openai/codex              (codex)
#   @google/gemini-cli         (gemini)
#
# into $AIGENT_CLIENTS_DIR (default: target/real-clients), as a private npm
# project: nothing is installed globally, and the tests find the programs in
# its node_modules/.bin. Run again, it does nothing while the pins match.
# .ci/run calls it before the tests. Needs node (20 or newer; older gets a
# node 20 from npm into the same directory) and npm.
#
# Changing a pin: edit the version below, run this script, run
# `cargo test --test it real_clients`, and update docs/hooks.md where the
# client's behaviour changed.
set -euo pipefail
cd "$(dirname "$0")/.."

CLAUDE_CODE_VERSION=2.1.197
CODEX_VERSION=0.171.0
GEMINI_CLI_VERSION=0.61.0
# Gemini CLI 0.61 requires node >= 20.
NODE_MAJOR_NEEDED=20

DIR="${AIGENT_CLIENTS_DIR:-$PWD/target/real-clients}"
PACKAGES=(
  "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"
  "@openai/codex@$CODEX_VERSION"
  "@google/gemini-cli@$GEMINI_CLI_VERSION"
)

say() { printf 'install-clients: %s\n' "$*" >&2; }

command -v npm >/dev/null || { say "npm is not on PATH"; exit 1; }
command -v node >/dev/null || { say "node is not on PATH"; exit 1; }

node_major=$(node -p 'process.versions.node.split(".")[0]')
if (( node_major < NODE_MAJOR_NEEDED )); then
  PACKAGES+=("node@$NODE_MAJOR_NEEDED")
fi

mkdir -p "$DIR"
STAMP="$DIR/pinned.txt"
WANT=$(printf '%s\n' "${PACKAGES[@]}")
BIN="$DIR/node_modules/.bin"

# The versions each program reports, one line each (run once, after an
# install: Gemini CLI takes seconds to start).
versions() {
  local run=(env "PATH=$BIN:$PATH" "HOME=$DIR/home" GEMINI_CLI_NO_RELAUNCH=true)
  "${run[@]}" "$BIN/claude" --version 2>/dev/null | head -n1
  "${run[@]}" "$BIN/codex" --version 2>/dev/null | head -n1
  "${run[@]}" "$BIN/gemini" --version 2>/dev/null | head -n1
}

# The version an installed package's package.json names.
package_version() {
  node -p "require(process.argv[1]).version" "$DIR/node_modules/$1/package.json" 2>/dev/null
}

installed_ok() {
  [[ -f $STAMP && $(cat "$STAMP") == "$WANT" ]] || return 1
  [[ -x $BIN/claude && -x $BIN/codex && -x $BIN/gemini ]] || return 1
  [[ $(package_version @anthropic-ai/claude-code) == "$CLAUDE_CODE_VERSION" ]] &&
    [[ $(package_version @openai/codex) == "$CODEX_VERSION" ]] &&
    [[ $(package_version @google/gemini-cli) == "$GEMINI_CLI_VERSION" ]]
}

if installed_ok; then
  say "up to date in $DIR"
  exit 0
fi

started=$SECONDS
say "installing ${PACKAGES[*]} into $DIR"
[[ -f $DIR/package.json ]] || printf '{"name": "aigent-real-clients", "private": true}\n' > "$DIR/package.json"
mkdir -p "$DIR/home"
# --save-exact: package.json records the pins; no audit or funding calls.
npm install --prefix "$DIR" --save-exact --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"

# Claude Code's postinstall puts the platform's native binary in place of
# its placeholder; an npm that skips install scripts leaves the placeholder.
if ! env "PATH=$BIN:$PATH" "HOME=$DIR/home" "$BIN/claude" --version >/dev/null 2>&1; then
  say "running Claude Code's postinstall (npm skipped it)"
  (cd "$DIR/node_modules/@anthropic-ai/claude-code" && node install.cjs)
fi

got=$(versions)
for pin in "$CLAUDE_CODE_VERSION" "$CODEX_VERSION" "$GEMINI_CLI_VERSION"; do
  if [[ $got != *"$pin"* ]]; then
    say "a client does not report version $pin; it reports:"
    printf '%s\n' "$got" >&2
    exit 1
  fi
done
printf '%s\n' "$WANT" > "$STAMP"
say "installed in $((SECONDS - started)) s:"
printf '  %s\n' "$got" >&2
