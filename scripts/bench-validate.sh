#!/usr/bin/env bash
# Times `aigent skill validate --recursive` over synthetic skills against the
# I/O floor (`find ... -name SKILL.md | xargs cat`) on the same files, warm
# cache for both, and checks that doubling the skills roughly doubles the
# time.
#
#   scripts/bench-validate.sh [COUNT...]     default: 10000 20000
#
# Environment: RUNS (timed runs per measurement, default 5), KEEP=1 keeps
# the generated trees, AIGENT (binary to time, default: a fresh release
# build). Each figure is the fastest of RUNS warm runs (the least disturbed
# by other load on the machine), with the median beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(10000 20000)
runs=${RUNS:-5}

if [ -z "${AIGENT:-}" ]; then
    cargo build --release --quiet
    AIGENT=${CARGO_TARGET_DIR:-$PWD/target}/release/aigent
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/aigent-bench.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then
    trap 'rm -rf "$work"' EXIT
fi

# One skill per directory, SKILL.md of 10-30 KB (20 KB on average): a
# frontmatter, a body of ~60-character lines with headings, lists, code
# fences and links, and one referenced file for every tenth skill.
generate() {
    local root=$1 count=$2
    mkdir -p "$root"
    seq 1 "$count" | awk -v root="$root" '{ print root "/skill-" $1; if ($1 % 10 == 0) print root "/skill-" $1 "/references" }' \
        | xargs mkdir -p
    awk -v root="$root" -v count="$count" 'BEGIN {
        srand(42);
        filler = "Explain the step, the command to run and what to check after it.";
        for (i = 1; i <= count; i++) {
            dir = root "/skill-" i;
            file = dir "/SKILL.md";
            target = 10240 + int(rand() * 20480);
            printf "---\nname: skill-%d\ndescription: Synthetic skill number %d, used to benchmark validation. Use when measuring.\nlicense: MIT\nmetadata:\n  author: bench\n  version: \"1.0\"\n---\n\n# Skill %d\n\n", i, i, i > file;
            size = 200;
            line = 0;
            while (size < target) {
                line++;
                if (line % 40 == 1) { text = "## Section " line; }
                else if (line % 40 == 10) { text = "```sh"; }
                else if (line % 40 == 12) { text = "```"; }
                else if (line % 40 == 20 && i % 10 == 0) { text = "See [the guide](references/guide.md) for details."; }
                else { text = "- " filler; }
                print text > file;
                size += length(text) + 1;
            }
            close(file);
            if (i % 10 == 0) { g = dir "/references/guide.md"; print "# Guide" > g; close(g); }
        }
    }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# "min_wall median_wall median_cpu" seconds over `runs` runs of a command,
# after one warm-up run. CPU time (user + sys) is the figure least moved by
# other load on the machine.
time_runs() {
    local walls=() cpus=() line
    "$@" > /dev/null 2>&1 || true
    for _ in $(seq "$runs"); do
        line=$( { TIMEFORMAT='%R %U %S'; time "$@" > /dev/null 2>&1 || true; } 2>&1 )
        walls+=("$(echo "$line" | awk '{ print $1 }')")
        cpus+=("$(echo "$line" | awk '{ print $2 + $3 }')")
    done
    local min_wall median_wall median_cpu
    min_wall=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
    median_wall=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    median_cpu=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
    echo "$min_wall $median_wall $median_cpu"
}

floor() { find "$1" -name SKILL.md -print0 | xargs -0 cat > /dev/null; }
validate() { "$AIGENT" --output json skill validate --recursive "$1"; }

# Peak resident memory of one validation in MB, with GNU time when the
# machine has it.
peak_mb() {
    if [ -x /usr/bin/time ] && /usr/bin/time -f %M true > /dev/null 2>&1; then
        /usr/bin/time -f %M "$AIGENT" --output json skill validate --recursive "$1" 2>&1 > /dev/null \
            | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'
    else
        echo n/a
    fi
}

echo "aigent: $AIGENT"
echo "cores: $(nproc), runs per measurement: $runs, load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
printf '%-7s %-7s %-22s %-22s %-6s %-8s\n' skills avg_KB "floor wall min/med cpu" "aigent wall min/med cpu" ratio peak_MB
declare -A aigent_times aigent_cpu
for count in "${counts[@]}"; do
    root="$work/skills-$count"
    generate "$root" "$count"
    bytes=$(find "$root" -name SKILL.md -print0 | xargs -0 cat | wc -c)
    average_kb=$(awk -v b="$bytes" -v n="$count" 'BEGIN { printf "%.1f", b / n / 1024 }')
    status=0
    validate "$root" > "$work/out.json" || status=$?
    if [ "$status" != 0 ]; then
        echo "validation of the synthetic skills failed (exit $status)" >&2
        head -c 2000 "$work/out.json" >&2
        exit 1
    fi
    read -r f_min f_median f_cpu < <(time_runs floor "$root")
    read -r a_min a_median a_cpu < <(time_runs validate "$root")
    aigent_times[$count]=$a_min
    aigent_cpu[$count]=$a_cpu
    printf '%-7s %-7s %-22s %-22s %-6s %-8s\n' "$count" "$average_kb" "$f_min/$f_median $f_cpu" \
        "$a_min/$a_median $a_cpu" "$(ratio "$a_min" "$f_min")" "$(peak_mb "$root")"
done

if [ ${#counts[@]} -ge 2 ]; then
    first=${counts[0]} last=${counts[${#counts[@]}-1]}
    echo "scaling ${last} vs ${first} skills: wall (fastest runs) $(ratio "${aigent_times[$last]}" "${aigent_times[$first]}")x, cpu $(ratio "${aigent_cpu[$last]}" "${aigent_cpu[$first]}")x"
fi
