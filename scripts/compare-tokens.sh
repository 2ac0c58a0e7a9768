#!/usr/bin/env bash
# Compares aigent's token counts with tiktoken's on every skill body of a
# corpus (scripts/real-skills.sh fetch DIR makes one), and prints the match
# rate and tiktoken's throughput.
#
#   scripts/compare-tokens.sh CORPUS
#   scripts/compare-tokens.sh --sample tests/fixtures/tokens/sample.jsonl
#
# Environment: AIGENT (the binary, default: a release build), TIKTOKEN_DIR
# (where the tiktoken npm package is installed, default a cache directory;
# installed with npm when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
export TIKTOKEN_DIR=${TIKTOKEN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/aigent-tiktoken}
if [ ! -d "$TIKTOKEN_DIR/node_modules/tiktoken" ]; then
    mkdir -p "$TIKTOKEN_DIR"
    npm install --silent --prefix "$TIKTOKEN_DIR" tiktoken@1.0.22
fi
if [ "${1:-}" = --sample ]; then
    exec node scripts/compare-tokens.mjs --sample "${2:?OUT.jsonl}"
fi
corpus=${1:?usage: $0 CORPUS}
if [ -z "${AIGENT:-}" ]; then
    cargo build --release --quiet
    AIGENT=${CARGO_TARGET_DIR:-$PWD/target}/release/aigent
fi
report=$(mktemp)
trap 'rm -f "$report"' EXIT
# Every skill, valid or not: exit 1 only says some are invalid.
"$AIGENT" --output json skill validate --recursive --profile permissive "$corpus" > "$report" || true
node scripts/compare-tokens.mjs "$report"
