#!/usr/bin/env bash
# Times `aigent skill validate --changed` (each --compare-to mode) against a
# full `aigent skill validate --recursive .` on the repository that
# scripts/gen-big-repo.sh builds: 50,000 files, 2,000 skills, 3 of them
# changed (one committed, one staged, one unstaged).
#
#   scripts/bench-changed.sh [REPO_DIR]
#
# REPO_DIR defaults to $TMPDIR/aigent-big-repo; an existing repository made
# by the generator with the same sizes is reused.
#
# Environment: RUNS (timed runs per command, default 11), AIGENT (binary to
# time, default: a fresh release build), AIGENT_BIG_REPO_FILES and
# AIGENT_BIG_REPO_SKILLS (passed to the generator). Every command runs once
# untimed first (warm cache), and its answer is checked before it is timed.
# Reported per command: the fastest and the median wall time of RUNS runs,
# the median CPU time (user + sys), and the median wall time as a share of
# the full run's. For scale, `git status --porcelain` (the git program's
# own work-tree scan) is timed too.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-11}
repo_dir=${1:-${TMPDIR:-/tmp}/aigent-big-repo}

if [ -z "${AIGENT:-}" ]; then
    cargo build --release --quiet
    AIGENT=${CARGO_TARGET_DIR:-$PWD/target}/release/aigent
fi

repo=$(scripts/gen-big-repo.sh "$repo_dir")
cd "$repo"

full=(skill validate --recursive .)
work_tree=(skill validate --changed)
index=(skill validate --changed --compare-to index)
head=(skill validate --changed --compare-to head)

# "checked" of a json run, and its exit code, must be as expected.
check() {
    local expected=$1 output status=0
    shift
    output=$("$AIGENT" --output json "$@") || status=$?
    local checked
    checked=$(printf '%s' "$output" | grep -o '"checked": [0-9]*' | head -1 | grep -o '[0-9]*$')
    if [ "$status" != 0 ] || [ "$checked" != "$expected" ]; then
        echo "aigent $* checked ${checked:-?} skills (exit $status); expected $expected" >&2
        exit 1
    fi
}

# "min_wall median_wall median_cpu" in seconds over `runs` runs of a
# command, after one untimed run.
time_runs() {
    local walls=() cpus=() line
    "$@" > /dev/null 2>&1 || true
    for _ in $(seq "$runs"); do
        line=$( { TIMEFORMAT='%3R %3U %3S'; time "$@" > /dev/null 2>&1 || true; } 2>&1 )
        walls+=("$(echo "$line" | awk '{ print $1 }')")
        cpus+=("$(echo "$line" | awk '{ printf "%.3f", $2 + $3 }')")
    done
    local min median cpu
    min=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
    median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    cpu=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    echo "$min $median $cpu"
}

skills=${AIGENT_BIG_REPO_SKILLS:-2000}
check "$skills" "${full[@]}"
check 3 "${work_tree[@]}"
check 2 "${index[@]}"
check 1 "${head[@]}"

echo "aigent: $AIGENT"
echo "repository: $repo ($(git ls-files | wc -l) tracked files, $skills skills)"
echo "cores: $(nproc), runs per command: $runs, load before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '%-36s %9s %9s %9s %9s\n' command "min s" "median s" "cpu s" "vs full"
read -r full_min full_median full_cpu < <(time_runs "$AIGENT" --output json "${full[@]}")
printf '%-36s %9s %9s %9s %9s\n' "--recursive . (full)" "$full_min" "$full_median" "$full_cpu" "100%"
for mode in work_tree index head; do
    declare -n args=$mode
    read -r min median cpu < <(time_runs "$AIGENT" --output json "${args[@]}")
    share=$(awk -v a="$median" -v b="$full_median" 'BEGIN { printf "%.0f%%", 100 * a / b }')
    label="--changed --compare-to ${mode/_/-}"
    printf '%-36s %9s %9s %9s %9s\n' "$label" "$min" "$median" "$cpu" "$share"
done
# For scale: what the git program needs to list the same work-tree changes.
if command -v git > /dev/null; then
    read -r min median cpu < <(time_runs git status --porcelain)
    share=$(awk -v a="$median" -v b="$full_median" 'BEGIN { printf "%.0f%%", 100 * a / b }')
    printf '%-36s %9s %9s %9s %9s\n' "(git status --porcelain, for scale)" "$min" "$median" "$cpu" "$share"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
