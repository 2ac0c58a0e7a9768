#!/usr/bin/env bash
# Wall time per `aigent args check` invocation against `aigent --version`
# (the process-start floor), for registries of 10 and 1,000 declarations.
# Goal: args check at most 1.5x the floor, whatever the registry size.
#
#   scripts/bench-args-check.sh [RUNS]        (default 300 runs per case)
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-300}"
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AIGENT_AUDIT_LOG="$work/audit.jsonl"
export AIGENT_OUTPUT=json

make_registry() {
  local dir="$1" count="$2"
  mkdir -p "$dir"
  for ((i = 0; i < count; i++)); do
    printf '{"name": "cmd-%04d", "description": "Command %d", "danger_level": "read_only",
  "parameters": {
    "item-id": {"type": "string", "required": true, "pattern_type": "alphanumeric_id"},
    "version": {"type": "string", "required": true, "pattern_type": "semver"},
    "path": {"type": "string", "pattern_type": "filepath"}
  },
  "subprocess": {"binary": "echo", "hardcoded_args": ["get"], "user_controlled_args": ["item-id", "version"]}}\n' \
      "$i" "$i" >"$dir/cmd-$(printf %04d "$i").json"
  done
}

make_registry "$work/r10" 10
make_registry "$work/r1000" 1000

names=(
  "aigent --version (floor)"
  "args check, 10 declarations, pass"
  "args check, 1,000 declarations, pass"
  "args check, 1,000 declarations, reject + audit"
  "args check, built-in registry (deploy), pass"
)
# Sets `argv` to case $1.
set_case() {
  case "$1" in
    0) argv=("$bin" --version) ;;
    1) argv=("$bin" --commands "$work/r10" args check cmd-0005 --item-id prod-east-1 --version 1.2.3 --path /home/user/file.txt) ;;
    2) argv=("$bin" --commands "$work/r1000" args check cmd-0999 --item-id prod-east-1 --version 1.2.3 --path /home/user/file.txt) ;;
    3) argv=("$bin" --commands "$work/r1000" args check cmd-0999 --item-id %2e%2e --version v1 --path ../x) ;;
    4) argv=("$bin" args check deploy --cluster-id prod-east-1 --version 1.2.3) ;;
  esac
}
run_case() {
  set_case "$1"
  "${argv[@]}"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# With perf, each case is `perf stat -r RUNS` (mean wall time, with its
# spread); without it, a shell loop.
if command -v perf >/dev/null && perf stat -r 1 true >/dev/null 2>&1; then
  printf 'perf stat -r %s per case (release build, %s)\n' "$runs" "$(uname -sm)"
  printf '%-50s %9s %9s %7s\n' case ms/run "+-%" xfloor
  floor=""
  for ((c = 0; c < ${#names[@]}; c++)); do
    for ((i = 0; i < 20; i++)); do run_case "$c" >/dev/null 2>&1 || true; done
    set_case "$c"
    line=$(perf stat -r "$runs" -- "${argv[@]}" 2>&1 >/dev/null | grep 'seconds time elapsed' || true)
    ms=$(awk '{ printf "%.3f", $1 * 1000 }' <<<"$line")
    spread=$(grep -o '+- *[0-9.]*%' <<<"$line" | tr -d '+ -')
    floor=${floor:-$ms}
    printf '%-50s %9s %9s %7s\n' "${names[c]}" "$ms" "$spread" "$(ratio "$ms" "$floor")"
  done
  exit 0
fi

# The cases take turns in rounds, so that load from other processes on the
# machine falls on all of them alike. Nanoseconds accumulate per case.
rounds=10
per_round=$(( (runs + rounds - 1) / rounds ))
declare -a total
for ((c = 0; c < ${#names[@]}; c++)); do
  total[c]=0
  for ((i = 0; i < 20; i++)); do run_case "$c" >/dev/null 2>&1 || true; done
done
for ((r = 0; r < rounds; r++)); do
  for ((c = 0; c < ${#names[@]}; c++)); do
    start=$(date +%s%N)
    for ((i = 0; i < per_round; i++)); do run_case "$c" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    total[c]=$(( total[c] + end - start ))
  done
done

ms() { awk -v ns="$1" -v n="$((per_round * rounds))" 'BEGIN { printf "%.3f", ns / n / 1e6 }'; }
floor_ns=${total[0]}

printf 'runs per case: %s in %s interleaved rounds (release build, %s)\n' "$((per_round * rounds))" "$rounds" "$(uname -sm)"
printf '%-50s %9s %7s\n' case ms/run xfloor
for ((c = 0; c < ${#names[@]}; c++)); do
  ratio=$(awk -v a="${total[c]}" -v b="$floor_ns" 'BEGIN { printf "%.2f", a / b }')
  printf '%-50s %9s %7s\n' "${names[c]}" "$(ms "${total[c]}")" "$ratio"
done
