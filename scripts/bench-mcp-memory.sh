#!/usr/bin/env bash
# Memory of one MCP tools/call per byte of its `arguments` (issue #30,
# item 5: at most 10x). Over stdio against the release binary, for a
# 1 MiB argument (the default --max-argument-bytes), a 4 MiB one (the
# cap raised with the flag), and, for the tiny-value shapes, the largest
# call the default --max-argument-values (16,384) lets in ("cap"), in
# five shapes:
#
#   string   one string value ({"text": "aaaa..."}), refused by the guard
#            for its length after every rule has run
#   words    an array of 1 KiB strings, accepted and run (`true` gets them
#            as argv words; at 4 MiB the spawn fails with E2BIG, after
#            every check)
#   short    an array of one-letter strings ("a", 4 bytes an item): the
#            most JSON values per byte that a string array can carry
#   refused  an array of "-" items (4 bytes an item), each refused by
#            the guard (a standalone leading dash): one violation an item
#   numbers  an input_schema array of integers ("1," 2 bytes an item)
#
# For each case a fresh server is started, initialized, and sent one
# small call of the same tool (so the code paths are warm and the
# declaration cached); its peak RSS (VmHWM) then is the idle baseline.
# The big call follows; the figure is (peak after - baseline) / argument
# bytes. Peak RSS, not allocated bytes: it is what the operator pays.
#
#   scripts/bench-mcp-memory.sh
#
# BENCH_MCP_SIZES picks the rows (default "1MiB 4MiB cap").
# BENCH_MCP_BASELINE=PATH adds a row per case for another aigent binary
# (a release build of main saved before a change), measured in the same
# run. The load average is printed before and after. Needs python3 (the
# JSON-RPC client only). Writes below a temporary directory only.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --quiet --bin aigent
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"
true_bin="$(command -v true)"
case "$true_bin" in /*) ;; *) true_bin=/bin/true ;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
export AIGENT_AUDIT_LOG="$work/audit.jsonl"
mkdir -p "$HOME" "$work/commands"

cat >"$work/commands/text.yaml" <<EOF
name: text
description: Takes one text
danger_level: safe
parameters:
  text: {type: string, required: true, pattern_type: free_text}
subprocess: {binary: "$true_bin", hardcoded_args: [], user_controlled_args: [text]}
EOF
cat >"$work/commands/words.yaml" <<EOF
name: words
description: Takes many words
danger_level: safe
parameters:
  words: {type: array, required: true, pattern_type: free_text}
subprocess: {binary: "$true_bin", hardcoded_args: [], user_controlled_args: [words]}
EOF
cat >"$work/commands/numbers.yaml" <<EOF
name: numbers
description: Takes many numbers
danger_level: safe
input_schema:
  type: object
  properties:
    numbers: {type: array, items: {type: integer}}
  required: [numbers]
subprocess: {binary: "$true_bin", hardcoded_args: [], user_controlled_args: [numbers]}
EOF

cat >"$work/client.py" <<'EOF'
import json, subprocess, sys

binary, commands, shape, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])

def arguments(size):
    if shape == "string":
        return "text", {"text": "a" * (size - len('{"text":""}'))}
    if shape == "words":
        word = "a" * 1024
        return "words", {"words": [word] * max(1, size // (len(word) + 3))}
    if shape == "short":
        return "words", {"words": ["a"] * max(1, size // 4)}
    if shape == "refused":
        return "words", {"words": ["-"] * max(1, size // 4)}
    return "numbers", {"numbers": [1] * max(1, size // 2)}

def hwm_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise SystemExit("no VmHWM")

server = subprocess.Popen(
    [binary, "--commands", commands, "mcp", "serve",
     "--max-argument-bytes", str(8 * 1024 * 1024)],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

def send(message):
    server.stdin.write((json.dumps(message, separators=(",", ":")) + "\n").encode())
    server.stdin.flush()

def answer(id):
    while True:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("the server closed stdout")
        message = json.loads(line)
        if message.get("id") == id:
            return message

send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
tool, small = arguments(64)
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
      "params": {"name": tool, "arguments": small}})
answer(2)
idle = hwm_kib(server.pid)
tool, big = arguments(size)
size = len(json.dumps(big, separators=(",", ":")))
send({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
      "params": {"name": tool, "arguments": big}})
reply = answer(3)
peak = hwm_kib(server.pid)
result = reply.get("result") or {}
if "error" in reply:
    how = f"error {reply['error'].get('code')}"
else:
    error = (result.get("structuredContent") or {}).get("error") or {}
    how = error.get("code") or ("ok" if not result.get("isError") else "isError")
server.stdin.close()
server.wait(timeout=30)
print(f"{size} {idle} {peak} {how}")
EOF

baseline="${BENCH_MCP_BASELINE:-}"
binaries=("aigent=$bin")
[ -n "$baseline" ] && binaries+=("baseline=$baseline")

echo "aigent $("$bin" --version); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-9s %-8s %-9s %10s %10s %10s %12s  %s\n' \
  binary shape argument "bytes" "idle MiB" "peak MiB" "per byte" "answer"
for size_name in ${BENCH_MCP_SIZES:-1MiB 4MiB cap}; do
  shapes="string words short refused numbers"
  [ "$size_name" = cap ] && shapes="short refused numbers"
  for shape in $shapes; do
    case "$size_name" in
      1MiB) size=$((1024 * 1024 - 256)) ;;
      4MiB) size=$((4 * 1024 * 1024)) ;;
      # As many tiny values as --max-argument-values lets in (16,384,
      # the object, its key and the array among them): the most a call can cost
      # per byte.
      cap) case "$shape" in numbers) size=$(((16384 - 3) * 2)) ;; *) size=$(((16384 - 3) * 4)) ;; esac ;;
    esac
    for entry in "${binaries[@]}"; do
      name="${entry%%=*}"
      path="${entry#*=}"
      read -r bytes idle peak how < <(python3 "$work/client.py" "$path" "$work/commands" "$shape" "$size")
      awk -v n="$name" -v s="$shape" -v a="$size_name" -v b="$bytes" -v i="$idle" -v p="$peak" -v h="$how" \
        'BEGIN { printf "%-9s %-8s %-9s %10d %10.1f %10.1f %12.1f  %s\n", n, s, a, b, i / 1024, p / 1024, (p - i) * 1024 / b, h }'
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
