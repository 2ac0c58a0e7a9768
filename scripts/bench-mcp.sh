#!/usr/bin/env bash
# tools/call latency over stdio: `aigent mcp serve` against cli-wrap-mcp
# (a Python MCP server that wraps CLIs from a YAML file), each measured
# with two clients: a raw JSON-RPC client (scripts/bench_mcp.py raw) and
# the official Python SDK's ClientSession (scripts/bench_mcp.py sdk).
# Both servers serve one tool, `noop`, that runs `true` with one
# validated `label` argument. Then aigent over Streamable HTTP
# (`--http 127.0.0.1:0`, bearer token), with the raw client (http.client)
# and the SDK's streamable_http_client: the rows `raw-http` and `sdk-http`.
#
# Goals (issue #23): aigent's raw p50 at most 0.5x cli-wrap-mcp's, and
# aigent's p50 through the SDK at most 1x cli-wrap-mcp's.
#
#   scripts/bench-mcp.sh [CALLS]       (default 300 calls per case)
#
# ROUNDS (default 3): the stdio servers take turns this many times, each
# round with CALLS calls; each server's p50 is the median of its rounds.
#
# Needs Python 3.11+ and the package index: it makes two virtualenvs under
# a temporary directory (cli-wrap-mcp pins its own `mcp`, the SDK client
# uses the current one, or BENCH_MCP_SDK: say 'mcp==1.28.*', whose client
# checks the outputSchema itself on every call), or reuses
# BENCH_MCP_VENV_WRAP / BENCH_MCP_VENV_SDK when set. Not part of CI. Every server writes below the temporary
# directory only (HOME, the audit log, cli-wrap-mcp's cache).
#
# BENCH_MCP_BREAKDOWN=1 adds three rows that take a call apart: the floor
# (`true` itself started and awaited from Python, no server), aigent with
# its audit log on tmpfs (/dev/shm: the fdatasync before each spawn costs
# next to nothing), and aigent with `--sandbox off`.
#
# BENCH_MCP_BASELINE=PATH adds a row per client for another aigent binary
# (say, a release build of main saved before a change), measured in the
# same run. The load average is printed before and after. The machine this
# runs on is rarely quiet: use many calls, run it more than once, and
# compare rows of one run only.
set -euo pipefail
cd "$(dirname "$0")/.."

calls="${1:-300}"
rounds="${ROUNDS:-3}"
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-$PWD/target}/release/aigent"
true_bin="$(command -v true)"
case "$true_bin" in /*) ;; *) true_bin=/bin/true ;; esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
export CLI_MCP_CACHE_DIR="$work/cache/cli-mcp"
export AIGENT_AUDIT_LOG="$work/audit.jsonl"
mkdir -p "$HOME" "$work/commands"
head -c 32 /dev/urandom | base64 | tr -d '\n' >"$work/token"
chmod 600 "$work/token"
export BENCH_MCP_TOKEN_FILE="$work/token"

cat >"$work/commands/noop.yaml" <<EOF
name: noop
description: Does nothing, successfully
danger_level: safe
parameters:
  label: {type: string, required: false, pattern: "^[a-z]{1,16}$"}
subprocess: {binary: "$true_bin", hardcoded_args: [], user_controlled_args: [label]}
EOF
cat >"$work/cli-wrap.yml" <<EOF
server:
  name: bench
  description: Does nothing, successfully.
tools:
  - name: noop
    description: Does nothing, successfully
    argv: ["$true_bin", "{label}"]
    params:
      label:
        type: string
        description: A label.
        pattern: "[a-z]{1,16}"
EOF

venv() { # NAME REQUIREMENT...
  local dir="$work/venv-$1"
  shift
  python3 -m venv "$dir"
  "$dir/bin/pip" install --quiet --disable-pip-version-check "$@"
  echo "$dir"
}
wrap_venv="${BENCH_MCP_VENV_WRAP:-$(venv wrap cli-wrap-mcp)}"
sdk_venv="${BENCH_MCP_VENV_SDK:-$(venv sdk "${BENCH_MCP_SDK:-mcp}")}"
echo "cli-wrap-mcp $("$wrap_venv/bin/pip" show cli-wrap-mcp | sed -n 's/^Version: //p')" \
  "(its mcp $("$wrap_venv/bin/pip" show mcp | sed -n 's/^Version: //p')); SDK client: mcp" \
  "$("$sdk_venv/bin/pip" show mcp | sed -n 's/^Version: //p'); aigent $("$bin" --version)"

aigent=("$bin" --commands "$work/commands" mcp serve)
baseline="${BENCH_MCP_BASELINE:-}"
servers=(aigent cli-wrap-mcp)
[ -n "$baseline" ] && servers+=(baseline)
wrap=("$wrap_venv/bin/cli-wrap-mcp" --config "$work/cli-wrap.yml")

measure() { # CLIENT SERVER...
  local client="$1"
  shift
  "$sdk_venv/bin/python" scripts/bench_mcp.py "$client" "$calls" -- "$@"
}
p50() { sed -n 's/.*"p50_ms": \([0-9.]*\).*/\1/p'; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %s\n' "case" "tools/call round trip (ms)"
# The servers take turns, ROUNDS times (each round a new server process
# and CALLS calls): the server measured first in a run was slower in it
# than when the same binary came later, so no server is always first.
# A server's p50 is the median of its rounds' p50s.
declare -A median
declare -A p50s
for client in raw sdk; do
  for round in $(seq "$rounds"); do
    for server in "${servers[@]}"; do
      case "$server" in
        aigent) line="$(measure "$client" "${aigent[@]}")" ;;
        baseline) line="$(measure "$client" "$baseline" --commands "$work/commands" mcp serve)" ;;
        *) line="$(measure "$client" "${wrap[@]}")" ;;
      esac
      p50s["$client/$server"]+="$(echo "$line" | p50) "
      printf '%-32s %s\n' "$client client, $server, round $round" "$line"
    done
    # The next round starts with the server after this round's first.
    servers=("${servers[@]:1}" "${servers[0]}")
  done
done
middle() { tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for key in "${!p50s[@]}"; do
  median["$key"]="$(echo "${p50s[$key]}" | middle)"
done
if [ -n "${BENCH_MCP_BREAKDOWN:-}" ]; then
  line="$(measure spawn "$true_bin" abc)"
  printf '%-32s %s\n' "floor: true, no server" "$line"
  if [ -d /dev/shm ]; then
    shm="$(mktemp -d /dev/shm/bench-mcp.XXXXXX)"
    line="$(AIGENT_AUDIT_LOG="$shm/audit.jsonl" measure raw "${aigent[@]}")"
    rm -rf "$shm"
    printf '%-32s %s\n' "raw client, aigent, tmpfs log" "$line"
  fi
  line="$(measure raw "${aigent[@]}" --sandbox off)"
  printf '%-32s %s\n' "raw client, aigent, no sandbox" "$line"
fi
http=(mcp serve --http 127.0.0.1:0 --token-file "$work/token")
for client in raw-http sdk-http; do
  for server in aigent baseline; do
    case "$server" in
      aigent) binary="$bin" ;;
      *) [ -n "$baseline" ] || continue; binary="$baseline" ;;
    esac
    line="$(measure "$client" "$binary" --commands "$work/commands" "${http[@]}")"
    printf '%-32s %s\n' "$client client, $server" "$line"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
for key in raw/aigent raw/cli-wrap-mcp raw/baseline sdk/aigent sdk/cli-wrap-mcp sdk/baseline; do
  if [ -n "${median[$key]:-}" ]; then
    printf '%-32s p50 %s ms (rounds: %s)\n' "$key" "${median[$key]}" "${p50s[$key]% }"
  fi
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "aigent raw p50 / cli-wrap-mcp raw p50:  $(ratio "${median[raw/aigent]}" "${median[raw/cli-wrap-mcp]}")  (goal <= 0.5)"
echo "aigent SDK p50 / cli-wrap-mcp raw p50:  $(ratio "${median[sdk/aigent]}" "${median[raw/cli-wrap-mcp]}")  (goal <= 1)"
echo "aigent SDK p50 / cli-wrap-mcp SDK p50:  $(ratio "${median[sdk/aigent]}" "${median[sdk/cli-wrap-mcp]}")"
if [ -n "$baseline" ]; then
  echo "baseline raw p50 / cli-wrap-mcp raw p50: $(ratio "${median[raw/baseline]}" "${median[raw/cli-wrap-mcp]}")"
  echo "baseline SDK p50 / cli-wrap-mcp raw p50: $(ratio "${median[sdk/baseline]}" "${median[raw/cli-wrap-mcp]}")"
fi
