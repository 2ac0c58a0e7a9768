#!/usr/bin/env bash
# The benchmark corpora of real skills: public skill collections at fixed
# revisions, and a larger set derived from them.
#
#   scripts/real-skills.sh fetch DIR
#       One directory per collection below DIR, each the collection's tree at
#       the revision named below. A collection is cloned from GitHub, or,
#       when MIRRORS is set, read from the git directory
#       $MIRRORS/OWNER+NAME/repo (a bare clone; files missing from it, such
#       as ones kept out of a partial clone, are left out).
#
#   scripts/real-skills.sh derive SRC DEST COUNT [BYTES]
#       COUNT skills below DEST made from the real ones below SRC: skill i
#       keeps the frontmatter of real skill i (mod n), named after its new
#       directory, and a body of real bodies, i's then the next ones', until
#       it reaches BYTES (default 19000). Real text, real frontmatter shapes;
#       only the amount is scaled.
#
# The corpora are not committed (their licences vary); this script and the
# revisions are, so a run can be repeated. The figures in
# docs/performance.md came from these revisions (the 4,054 skills of
# 2026-11).
set -euo pipefail

# owner/name revision
COLLECTIONS=(
    "anthropics/skills 9d2f1ae187231d8199c64b5b762e1bdf2244733d"
    "jeremylongshore/claude-code-plugins-plus-skills 22fc789350af7c18c233242da6f7b578dbf59fce"
    "sickn33/antigravity-awesome-skills e1dd8f41bcb43c3bb025d5056183729a626b696d"
    "wshobson/agents 367cb6a4a182cf7e9b0a17c9429f7411ddd9cf35"
    "K-Dense-AI/claude-scientific-skills 899a51bfbd63218153b272c9459dcb4a7ae88da6"
    "obra/superpowers 44c9b2d6e889982ac18c27d05a19fefe335194e1"
)

fetch_one() {
    local repo=$1 revision=$2 dest=$3
    local key=${repo/\//+}
    rm -rf "$dest/$key"
    mkdir -p "$dest/$key"
    if [ -n "${MIRRORS:-}" ]; then
        local git_dir="$MIRRORS/$key/repo"
        # A temporary index of the revision, less any blob the mirror lacks.
        local index
        index=$(mktemp)
        GIT_DIR=$git_dir GIT_INDEX_FILE=$index git read-tree "$revision"
        GIT_DIR=$git_dir git ls-tree -r "$revision" \
            | awk '$2 == "blob" { print $3 }' \
            | GIT_DIR=$git_dir git cat-file --batch-check \
            | awk '$2 == "missing" { print $1 }' > "$index.missing"
        if [ -s "$index.missing" ]; then
            GIT_DIR=$git_dir git ls-tree -r "$revision" | grep -F -f "$index.missing" \
                | cut -f2 | while IFS= read -r path; do
                    GIT_DIR=$git_dir GIT_INDEX_FILE=$index git update-index --force-remove "$path"
                done
        fi
        GIT_DIR=$git_dir GIT_INDEX_FILE=$index GIT_WORK_TREE="$dest/$key" \
            git checkout-index -a -f --prefix="$dest/$key/"
        rm -f "$index" "$index.missing"
    else
        git clone --quiet --no-checkout "https://github.com/$repo" "$dest/$key/.clone"
        git -C "$dest/$key/.clone" --work-tree="$dest/$key" checkout --quiet "$revision" -- .
        rm -rf "$dest/$key/.clone"
    fi
    echo "$repo@$revision: $(find "$dest/$key" -name SKILL.md | wc -l) skills"
}

derive() {
    local src=$1 dest=$2 count=$3 bytes=${4:-19000}
    mkdir -p "$dest"
    find "$src" -name SKILL.md -print0 | sort -z > "$dest.list"
    python3 - "$dest.list" "$dest" "$count" "$bytes" <<'PY'
import os, sys
listing, dest, count, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
files = [p for p in open(listing, 'rb').read().split(b'\0') if p]
skills = []
for path in files:
    text = open(path, 'rb').read().decode('utf-8', 'replace')
    if not text.startswith('---\n'):
        continue
    end = text.find('\n---\n', 4)
    if end < 0:
        continue
    front, body = text[4:end], text[end + 5:]
    skills.append(([l for l in front.split('\n') if not l.startswith('name:')], body))
n = len(skills)
for i in range(count):
    front, body = skills[i % n]
    name = f'real-{i:05d}'
    parts, j = [body], 1
    while sum(len(p) for p in parts) < wanted and j < n:
        parts.append(skills[(i + j) % n][1])
        j += 1
    os.makedirs(os.path.join(dest, name), exist_ok=True)
    with open(os.path.join(dest, name, 'SKILL.md'), 'w') as out:
        out.write('---\nname: ' + name + '\n' + '\n'.join(front) + '\n---\n' + '\n'.join(parts))
print(f'{count} skills derived from {n} real ones below {dest}')
PY
    rm -f "$dest.list"
}

case "${1:-}" in
    fetch)
        dest=${2:?usage: $0 fetch DIR}
        mkdir -p "$dest"
        for entry in "${COLLECTIONS[@]}"; do
            # shellcheck disable=SC2086
            fetch_one $entry "$dest"
        done
        ;;
    derive)
        derive "${2:?SRC}" "${3:?DEST}" "${4:?COUNT}" "${5:-19000}"
        ;;
    *)
        sed -n '2,22p' "$0"
        exit 2
        ;;
esac
