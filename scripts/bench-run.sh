#!/usr/bin/env bash
# The overhead of `aigent run NAME` over running the same argv directly:
# Phase 1, the argv, the audit record, process-group setup and the wait.
# Goal: at most 2 ms (median) over the direct run.
#
#   scripts/bench-run.sh [RUNS]        (default 500 runs per case)
#
# Each round runs every case once, in turn, so that load from other
# processes falls on all of them alike; each run is timed on its own with
# bash's $EPOCHREALTIME (no fork for the clock), and the script prints the
# median, the 10th and 90th percentiles, and the median overhead.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-500}"
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"
true_bin="$(command -v true)"
echo_bin="$(command -v echo)"
case "$true_bin" in /*) ;; *) true_bin=/bin/true ;; esac
case "$echo_bin" in /*) ;; *) echo_bin=/bin/echo ;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/commands"
cat >"$work/commands/noop.json" <<EOF
{"name": "noop", "description": "Does nothing", "danger_level": "safe", "parameters": {},
 "subprocess": {"binary": "$true_bin", "hardcoded_args": [], "user_controlled_args": []}}
EOF
cat >"$work/commands/greet.json" <<EOF
{"name": "greet", "description": "Print a greeting", "danger_level": "safe",
 "parameters": {"who": {"type": "string", "required": true, "pattern_type": "alphanumeric_id"}},
 "subprocess": {"binary": "$echo_bin", "hardcoded_args": ["hello"], "user_controlled_args": ["who"]}}
EOF
export AIGENT_AUDIT_LOG="$work/audit.jsonl"
export AIGENT_COMMANDS="$work/commands"
export AIGENT_OUTPUT=json

names=(
  "$true_bin (direct)"
  "aigent run noop"
  "$echo_bin hello world (direct)"
  "aigent run greet --who world"
  "aigent run --dry-run greet --who world"
  "aigent --version (process start)"
)
# Sets `argv` to case $1.
set_case() {
  case "$1" in
    0) argv=("$true_bin") ;;
    1) argv=("$bin" run noop) ;;
    2) argv=("$echo_bin" hello world) ;;
    3) argv=("$bin" run greet --who world) ;;
    4) argv=("$bin" run --dry-run greet --who world) ;;
    5) argv=("$bin" --version) ;;
  esac
}

cases=${#names[@]}
declare -a samples
for ((c = 0; c < cases; c++)); do
  samples[c]=""
  set_case "$c"
  for ((i = 0; i < 20; i++)); do "${argv[@]}" >/dev/null 2>&1 || true; done
done
for ((r = 0; r < runs; r++)); do
  for ((c = 0; c < cases; c++)); do
    set_case "$c"
    start=$EPOCHREALTIME
    "${argv[@]}" >/dev/null 2>&1 || true
    end=$EPOCHREALTIME
    samples[c]+="$(( (${end/./} - ${start/./}) )) "
  done
done

# percentile P of the microsecond samples of case $1
percentile() {
  tr ' ' '\n' <<<"${samples[$1]}" | grep -v '^$' | sort -n |
    awk -v p="$2" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; printf "%.3f", v[i] / 1000 }'
}

printf 'runs per case: %s, interleaved (release build, %s, load %s)\n' \
  "$runs" "$(uname -sm)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-50s %9s %9s %9s\n' case "p10 ms" "median ms" "p90 ms"
declare -a median
for ((c = 0; c < cases; c++)); do
  median[c]=$(percentile "$c" 50)
  printf '%-50s %9s %9s %9s\n' "${names[c]}" "$(percentile "$c" 10)" "${median[c]}" "$(percentile "$c" 90)"
done
overhead() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
printf '\nmedian overhead of `aigent run noop` over %s:            %s ms\n' "$true_bin" "$(overhead "${median[1]}" "${median[0]}")"
printf 'median overhead of `aigent run greet` over %s hello world: %s ms\n' "$echo_bin" "$(overhead "${median[3]}" "${median[2]}")"
printf 'records written: %s\n' "$(wc -l <"$AIGENT_AUDIT_LOG")"
