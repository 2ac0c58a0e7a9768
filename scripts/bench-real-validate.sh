#!/usr/bin/env bash
# Times `aigent skill validate --recursive` on real skills against the I/O
# floor (`find DIR -name SKILL.md | xargs cat > /dev/null`) on the same
# files, in the same run, warm cache, with hyperfine; then the peak memory
# (GNU time). Corpora: scripts/real-skills.sh (fetch, and derive for the
# scaled sets).
#
#   scripts/bench-real-validate.sh DIR...
#
# Environment: AIGENT (the binary; default a fresh release build), RUNS
# (hyperfine runs per command, default 10), FORMAT (default json; text
# skips counting bodies too short to be over the budget), ARGS (extra
# validate flags).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { sed -n '2,13p' "$0"; exit 2; }
runs=${RUNS:-10}
if [ -z "${AIGENT:-}" ]; then
    cargo build --release --quiet
    AIGENT=$PWD/target/release/aigent
fi
command -v hyperfine > /dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }

printf '%-34s %8s %10s %10s %8s %9s\n' corpus skills "floor s" "aigent s" ratio "peak MB"
for dir in "$@"; do
    skills=$(find "$dir" -name SKILL.md | wc -l)
    out=$(mktemp)
    floor="find $dir -name SKILL.md -print0 | xargs -0 cat > /dev/null"
    validate="$AIGENT --format ${FORMAT:-json} skill validate --recursive ${ARGS:-} $dir > /dev/null"
    hyperfine --style none --warmup 2 --runs "$runs" -i --export-json "$out" \
        "$floor" "$validate" > /dev/null
    read -r floor_s aigent_s < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["median"], r[1]["median"])' "$out")
    # Peak resident memory of one run, in MB.
    peak_kb=$( { /usr/bin/time -f '%M' "$AIGENT" --format "${FORMAT:-json}" skill validate --recursive ${ARGS:-} "$dir" > /dev/null || true; } 2>&1 | tail -1)
    printf '%-34s %8d %10.3f %10.3f %8.2f %9.1f\n' "$(basename "$dir")" "$skills" \
        "$floor_s" "$aigent_s" "$(echo "$aigent_s / $floor_s" | bc -l)" "$(echo "$peak_kb / 1024" | bc -l)"
    rm -f "$out"
done
