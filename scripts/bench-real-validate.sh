#!/usr/bin/env bash
# Times `aigent skill validate --recursive` on real skills against the I/O
# floor (`find DIR -name SKILL.md | xargs cat > /dev/null`) on the same
# files, in the same run, warm cache: the commands alternate (floor,
# aigent, and a baseline build when BASE is set), and the CPU time (user +
# sys, which a shared machine's load disturbs far less than the wall time)
# is compared pair by pair; medians are printed. Then the peak memory of
# one run of each build (GNU time). Corpora: scripts/real-skills.sh (fetch,
# and derive for the scaled sets).
#
#   scripts/bench-real-validate.sh DIR...
#
# Environment: AIGENT (the binary; default a fresh release build), BASE (a
# baseline binary to compare with, pair by pair), PAIRS (rounds, default
# 10), FORMAT (default json; text skips counting bodies too short to be
# over the budget), ARGS (extra validate flags).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { sed -n '2,16p' "$0"; exit 2; }
pairs=${PAIRS:-10}
format=${FORMAT:-json}
if [ -z "${AIGENT:-}" ]; then
    cargo build --release --quiet
    AIGENT=${CARGO_TARGET_DIR:-$PWD/target}/release/aigent
fi
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

# CPU seconds (user + sys) and peak KB of one run of "$@", output dropped.
cpu() {
    /usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" > /dev/null 2>&1 || true
    tail -1 "$tmp/t" | awk '{printf "%.3f %d\n", $1 + $2, $3}'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %7s %8s %9s %8s %9s %8s %9s %9s\n' corpus skills "floor s" "aigent s" "/floor" "base s" "/floor" "new/base" "peak MB"
for dir in "$@"; do
    skills=$(find "$dir" -name SKILL.md | wc -l)
    : > "$tmp/rows"
    # One warm-up of each, then the rounds.
    sh -c "find '$dir' -name SKILL.md -print0 | xargs -0 cat > /dev/null"
    "$AIGENT" --output "$format" skill validate --recursive ${ARGS:-} "$dir" > /dev/null 2>&1 || true
    for _ in $(seq "$pairs"); do
        read -r floor _ < <(cpu sh -c "find '$dir' -name SKILL.md -print0 | xargs -0 cat > /dev/null")
        read -r new new_kb < <(cpu "$AIGENT" --output "$format" skill validate --recursive ${ARGS:-} "$dir")
        base=0 base_kb=0
        if [ -n "${BASE:-}" ]; then
            read -r base base_kb < <(cpu "$BASE" --output "$format" skill validate --recursive ${ARGS:-} "$dir")
        fi
        echo "$floor $new $base $new_kb $base_kb" >> "$tmp/rows"
    done
    python3 - "$tmp/rows" "$(basename "$dir")" "$skills" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1])]
med = lambda xs: statistics.median(xs)
floor = med([r[0] for r in rows]); new = med([r[1] for r in rows]); base = med([r[2] for r in rows])
new_ratio = med([r[1] / r[0] for r in rows])
base_ratio = med([r[2] / r[0] for r in rows]) if base else float("nan")
vs_base = med([r[1] / r[2] for r in rows]) if base else float("nan")
peak = max(r[3] for r in rows) / 1024
base_peak = max(r[4] for r in rows) / 1024
print(f"{sys.argv[2][:22]:<22} {int(sys.argv[3]):>7} {floor:>8.3f} {new:>9.3f} {new_ratio:>8.2f} "
      f"{base:>9.3f} {base_ratio:>8.2f} {vs_base:>9.3f} {peak:>5.1f}/{base_peak:.1f}")
PY
done
