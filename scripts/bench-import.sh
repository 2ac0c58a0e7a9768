#!/usr/bin/env bash
# `aigent schema import --dry-run` on CLI Agent Spec manifests of growing
# size: CPU seconds (user + sys) and peak memory per size, and the cost per
# command, which stays flat when the import is linear in the spec's size.
# Also a usage spec whose `global` flags repeat in every command.
#
#   scripts/bench-import.sh [SIZES...]     (default: 10000 20000 40000 80000)
#   AIGENT_BIN=path/to/aigent scripts/bench-import.sh   (another build, to compare)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${AIGENT_BIN:-}" ]]; then
  cargo build --release --quiet
  AIGENT_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"
fi
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(10000 20000 40000 80000)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AIGENT_AUDIT_LOG="$work/audit.jsonl"

# A manifest of N commands, each as small as a command entry can be, so
# that 80,000 of them fit under the 4 MiB the import reads.
manifest() {
  awk -v n="$1" 'BEGIN {
    printf "{\"commands\":{"
    for (i = 0; i < n; i++) printf "%s\"c%d\":{\"description\":\"x\"}", (i ? "," : ""), i
    printf "}}"
  }'
}

# A usage spec of N commands under one root with 2 global flags, which
# every command repeats (the import holds at most 200,000 inputs in all).
usage_spec() {
  awk -v n="$1" 'BEGIN {
    print "bin t"
    for (g = 0; g < 2; g++) printf "flag \"--g%d <v>\" global=#true\n", g
    for (i = 0; i < n; i++) printf "cmd c%d\n", i
  }'
}

measure() {
  local label="$1" n="$2" file="$3" from="$4"
  local out
  out=$( { /usr/bin/time -f '%U %S %M' "$AIGENT_BIN" --output json schema import \
    --from "$from" --program t --dry-run "$file" >/dev/null || true; } 2>&1 | tail -1)
  read -r user sys rss <<<"$out"
  awk -v l="$label" -v n="$n" -v u="$user" -v s="$sys" -v m="$rss" -v b="$(wc -c <"$file")" 'BEGIN {
    cpu = u + s
    printf "%-10s %8d %9d %8.2f %10.1f %8.1f %9.2f\n", l, n, b, cpu, cpu / n * 1e6, m / 1024, m * 1024 / n / 1024
  }'
}

printf '%s\n' "binary: $AIGENT_BIN"
printf '%-10s %8s %9s %8s %10s %8s %9s\n' format commands bytes cpu_s us/command peak_MB KB/command
for n in "${sizes[@]}"; do
  manifest "$n" >"$work/m$n.json"
  measure agent-spec "$n" "$work/m$n.json" agent-spec
done
for n in "${sizes[@]}"; do
  usage_spec "$n" >"$work/u$n.kdl"
  measure usage "$n" "$work/u$n.kdl" usage
done
