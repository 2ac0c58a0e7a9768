#!/usr/bin/env bash
# The cost of the sandbox per spawn: `aigent run --sandbox best-effort`
# (Landlock ruleset and seccomp filters built by aigent; the child, cloned
# as posix_spawn clones, enters its read-only view of the file system, a
# new session, its limits, and drops its capabilities and descriptors
# before exec; a private $TMP made and removed; aigent reaps the run's
# process group) against `aigent run --sandbox off`, the same command
# otherwise.
# Goal: at most 1 ms (median) per spawn. Figures: docs/security.md, "Cost".
# On a loaded machine wall time is noise; compare CPU time (user + sys of
# aigent and its child, from wait4) over interleaved runs as well.
#
#   scripts/bench-sandbox.sh [RUNS]        (default 500 runs per case)
#   AIGENT_BENCH_BIN=/path/to/aigent scripts/bench-sandbox.sh [RUNS]
#
# Each round runs every case once, in turn, so that load from other
# processes falls on all of them alike; each run is timed on its own with
# bash's $EPOCHREALTIME, and the script prints the median, the 10th and
# 90th percentiles, the difference of the medians, and the median (with
# the 25th and 75th percentiles) of each round's own difference, sandboxed
# minus off, which a machine whose load drifts during the run moves less.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-500}"
# AIGENT_BENCH_BIN: another build to time (an older one, side by side).
if [ -n "${AIGENT_BENCH_BIN:-}" ]; then
  bin="$AIGENT_BENCH_BIN"
else
  cargo build --release --quiet
  bin="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"
fi
true_bin="$(command -v true)"
case "$true_bin" in /*) ;; *) true_bin=/bin/true ;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/commands" "$work/project"
# The danger level's defaults: writes to /dev/null and $TMP, no network.
cat >"$work/commands/noop.json" <<EOF2
{"name": "noop", "description": "Does nothing", "danger_level": "safe", "parameters": {},
 "subprocess": {"binary": "$true_bin", "hardcoded_args": [], "user_controlled_args": []}}
EOF2
# Reads confined too (the system's runtime, $CWD, a path parameter), and
# TCP port rules: the largest ruleset a typical declaration makes.
cat >"$work/commands/confined.json" <<EOF2
{"name": "confined", "description": "Does nothing, confined", "danger_level": "mutating",
 "parameters": {"path": {"type": "string", "required": true, "pattern_type": "filepath"}},
 "subprocess": {"binary": "$true_bin", "argv": [{"param": "path"}]},
 "sandbox": {"read": ["\$CWD", "{path}"], "write": ["\$CWD", "{path}"], "network": {"connect": [443, 8443]}}}
EOF2
cd "$work/project"
export AIGENT_AUDIT_LOG="$work/audit.jsonl"
export AIGENT_COMMANDS="$work/commands"
export AIGENT_OUTPUT=json

names=(
  "aigent run --sandbox off noop"
  "aigent run --sandbox best-effort noop"
  "aigent run --sandbox off confined"
  "aigent run --sandbox best-effort confined"
)
set_case() {
  case "$1" in
    0) argv=("$bin" run --sandbox off noop) ;;
    1) argv=("$bin" run --sandbox best-effort noop) ;;
    2) argv=("$bin" run --sandbox off confined --path out.txt) ;;
    3) argv=("$bin" run --sandbox best-effort confined --path out.txt) ;;
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

percentile() {
  tr ' ' '\n' <<<"${samples[$1]}" | grep -v '^$' | sort -n |
    awk -v p="$2" '{ v[NR] = $1 } END { i = int((NR - 1) * p / 100) + 1; printf "%.3f", v[i] / 1000 }'
}

printf 'runs per case: %s, interleaved (release build, %s, load %s)\n' \
  "$runs" "$(uname -sr)" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
"$bin" run --sandbox best-effort noop 2>&1 >/dev/null | grep -o '"landlock_abi": [0-9]*' || true
printf '%-45s %9s %9s %9s\n' case "p10 ms" "median ms" "p90 ms"
declare -a median
for ((c = 0; c < cases; c++)); do
  median[c]=$(percentile "$c" 50)
  printf '%-45s %9s %9s %9s\n' "${names[c]}" "$(percentile "$c" 10)" "${median[c]}" "$(percentile "$c" 90)"
done
overhead() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
# Each round's sandboxed time minus the same round's time off: p25, median, p75.
paired() {
  paste <(tr ' ' '\n' <<<"${samples[$1]}" | grep -v '^$') \
    <(tr ' ' '\n' <<<"${samples[$2]}" | grep -v '^$') |
    awk '{ print $1 - $2 }' | sort -n |
    awk '{ v[NR] = $1 } END { printf "%.3f / %.3f / %.3f", v[int((NR - 1) * 0.25) + 1] / 1000, v[int((NR - 1) * 0.5) + 1] / 1000, v[int((NR - 1) * 0.75) + 1] / 1000 }'
}
printf '\nmedian sandbox overhead per spawn, defaults (noop):      %s ms\n' "$(overhead "${median[1]}" "${median[0]}")"
printf 'median sandbox overhead per spawn, confined reads + TCP: %s ms\n' "$(overhead "${median[3]}" "${median[2]}")"
printf 'paired per round (p25 / median / p75), noop:             %s ms\n' "$(paired 1 0)"
printf 'paired per round (p25 / median / p75), confined:         %s ms\n' "$(paired 3 2)"
