#!/usr/bin/env bash
# How `aigent hook` judges real agent traffic (issue 44): every line of the
# labelled corpus in tests/fixtures/hook/traffic/ (everyday.txt,
# destructive.txt, spellings.txt; see SOURCES.md there) goes to
# `aigent hook --client claude-code` as Claude Code's PreToolUse event, and
# the script reports allow/ask/deny per file, per class and per split, how
# many verdicts meet the line's label, every destructive line allowed and
# every everyday line denied (with the rules that decided it).
#
# Two registries, each measured on its own (--mode):
#   zero      no registry: no --commands, no AIGENT_COMMANDS, an empty HOME
#             and XDG dirs (so no user layer), a working directory that is a
#             fresh git repository with no commands/ (so no project layer);
#   registry  the sample project registry, --commands tests/fixtures/hook/registry.
#
# Nothing touches the real HOME or audit log: each run gets a temporary
# directory holding HOME, the XDG dirs, the audit log and the project (the
# paths of tests/fixtures/hook/traffic/project.txt, committed once). The
# environment is built from nothing but PATH, so AIGENT_* variables of the
# caller do not leak in. The rules come from the run's own audit records.
#
#   scripts/hook-corpus.sh [options] [CORPUS_FILE...]
#     --mode zero|registry|both   (default both)
#     --split all|tune|holdout    (default all; `# split:` markers in the files)
#     --route                     pass --route to the hook
#     --jobs N                    hook calls at once (default: the CPUs)
#     --json FILE                 every case with its verdict and rules, as JSON
#     --mismatches                also list every line whose verdict misses its label
#     --registry DIR              the registry of --mode registry (default the sample one)
#   AIGENT=/path/to/aigent scripts/hook-corpus.sh   (a binary already built;
#   otherwise `cargo build --release` into CARGO_TARGET_DIR or target/)
#
# Exit status: 0 when every line was judged; 1 when the hook failed on some
# line (no answer, a crash, a timeout) or there is no binary; 2 for bad
# arguments. The figures are the result; the script asserts none of them.
# Each line is one hook process: with a debug build on 2 busy cores the
# whole corpus took about 2.5 minutes for both modes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 - "$root" "$@" <<'PY'
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict

ROOT = sys.argv[1]
TRAFFIC = os.path.join(ROOT, "tests/fixtures/hook/traffic")
REGISTRY = os.path.join(ROOT, "tests/fixtures/hook/registry")
VERDICTS = ("allow", "ask", "deny", "defer", "error")
EXPECTED = ("allow", "ask", "deny", "!allow")

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the report quietly
parser = argparse.ArgumentParser(
    prog="scripts/hook-corpus.sh",
    description="Judge the labelled agent-traffic corpus (tests/fixtures/hook/traffic/) "
                "with `aigent hook --client claude-code` and report allow/ask/deny. "
                "AIGENT=/path/to/aigent names the binary; otherwise `cargo build --release`.")
parser.add_argument("files", nargs="*", metavar="CORPUS_FILE")
parser.add_argument("--mode", choices=("zero", "registry", "both"), default="both")
parser.add_argument("--split", choices=("all", "tune", "holdout"), default="all")
parser.add_argument("--route", action="store_true")
parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
parser.add_argument("--json", metavar="FILE")
parser.add_argument("--mismatches", action="store_true")
parser.add_argument("--registry", metavar="DIR", default=REGISTRY,
                    help="the registry of --mode registry (default: the sample project registry)")
args = parser.parse_args(sys.argv[2:])
if args.jobs < 1:
    parser.error("--jobs must be at least 1")
if not os.path.isdir(args.registry):
    parser.error(f"--registry {args.registry}: not a directory")
REGISTRY = os.path.abspath(args.registry)
sys.stdout.reconfigure(line_buffering=True)

# The binary: $AIGENT, else a release build (only once the arguments are known good).
BIN = os.environ.get("AIGENT", "")
if not BIN:
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"),
                       "release", "aigent")
if not (os.path.isfile(BIN) and os.access(BIN, os.X_OK)):
    sys.exit(f"hook-corpus: no aigent binary at {BIN}")
BIN = os.path.abspath(BIN)
files = args.files or [
    os.path.join(TRAFFIC, name)
    for name in ("everyday.txt", "destructive.txt", "spellings.txt")
]


def decode(text):
    """\\n, \\r, \\t and \\\\ decoded, as tests/it/hook_corpus.rs does."""
    out, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in "nrt\\":
                out.append({"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}[nxt])
                i += 2
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def read_corpus(path):
    cases, split, source = [], "tune", None
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                marker = re.match(r"#\s*split:\s*(\w+)", line)
                if marker:
                    if marker.group(1) not in ("tune", "holdout"):
                        sys.exit(f"{name}:{number}: unknown split {marker.group(1)!r}")
                    split = marker.group(1)
                found = re.match(r"#\s*source:\s*(\S+)", line)
                if found:
                    source = found.group(1)
                continue
            fields = line.split("\t", 2)
            if len(fields) != 3 or not fields[2]:
                sys.exit(f"{name}:{number}: not EXPECTED<TAB>CLASS<TAB>COMMAND: {line!r}")
            token, klass, command = fields
            newlines = token.endswith("/nl")
            token = token[:-3] if newlines else token
            if token not in EXPECTED:
                sys.exit(f"{name}:{number}: unknown expected verdict {token!r}")
            cases.append({
                "file": name, "line": number, "split": split, "source": source,
                "expected": token, "class": klass,
                "command": decode(command) if newlines else command,
            })
    return cases


corpus = []
for path in files:
    corpus.extend(read_corpus(path))
if args.split != "all":
    corpus = [case for case in corpus if case["split"] == args.split]
if not corpus:
    sys.exit("hook-corpus: no cases")

work = tempfile.mkdtemp(prefix="aigent-hook-corpus.")


def environment(home):
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "HOME": home,
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_DATA_HOME": os.path.join(home, ".local/share"),
        "XDG_STATE_HOME": os.path.join(home, ".local/state"),
    }


def make_project(project, env):
    os.makedirs(project)
    listing = os.path.join(TRAFFIC, "project.txt")
    with open(listing, encoding="utf-8") as handle:
        for entry in handle:
            entry = entry.strip()
            if not entry or entry.startswith("#"):
                continue
            target = os.path.join(project, entry)
            if entry.endswith("/"):
                os.makedirs(target, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                open(target, "a").close()
    git_env = dict(env, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="corpus",
                   GIT_AUTHOR_EMAIL="corpus@example.invalid",
                   GIT_COMMITTER_NAME="corpus",
                   GIT_COMMITTER_EMAIL="corpus@example.invalid")
    for command in (["git", "init", "-q"], ["git", "add", "-A"],
                    ["git", "commit", "-q", "-m", "corpus project"]):
        subprocess.run(command, cwd=project, env=git_env, check=True,
                       stdout=subprocess.DEVNULL)


RULE = re.compile(r"\[rule ([a-z_0-9]+)\]")


def judge(case, mode, index, env, project):
    """One hook call: Claude Code's PreToolUse event for the line."""
    session = f"corpus-{mode}-{index}"
    event = {
        "session_id": session,
        "transcript_path": os.path.join(work, "transcript.jsonl"),
        "cwd": project,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": case["command"], "description": "corpus line",
                       "timeout": 120000, "run_in_background": False},
        "tool_use_id": f"toolu_{mode}_{index}",
    }
    command = [BIN]
    if mode == "registry":
        command += ["--commands", REGISTRY]
    command += ["hook", "--client", "claude-code"]
    if args.route:
        command.append("--route")
    try:
        run = subprocess.run(command, input=json.dumps(event).encode(), env=env,
                             cwd=project, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return session, "error", "timed out after 60 s"
    stdout = run.stdout.decode("utf-8", "replace").strip()
    stderr = run.stderr.decode("utf-8", "replace").strip()
    decision, reason = None, ""
    if stdout:
        try:
            output = json.loads(stdout)["hookSpecificOutput"]
            decision = output.get("permissionDecision")
            reason = output.get("permissionDecisionReason", "")
        except (ValueError, KeyError, TypeError):
            return session, "error", f"unreadable answer: {stdout[:200]}"
    if run.returncode == 2:
        # Claude Code blocks on exit 2 whatever the JSON says.
        return session, "deny", reason or stderr
    if run.returncode != 0:
        return session, "error", f"exit {run.returncode}: {stderr[:200]}"
    if decision is None:
        return session, "defer", ""
    if decision not in ("allow", "ask", "deny"):
        return session, "error", f"unknown decision {decision!r}"
    return session, decision, reason


def run_mode(mode):
    home = os.path.join(work, mode, "home")
    os.makedirs(home)
    env = environment(home)
    env["AIGENT_AUDIT_LOG"] = os.path.join(work, mode, "audit.jsonl")
    project = os.path.join(work, mode, "project")
    make_project(project, env)
    results = [None] * len(corpus)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(judge, case, mode, index, env, project): index
                   for index, case in enumerate(corpus)}
        for future in concurrent.futures.as_completed(futures):
            results[futures[future]] = future.result()
    segments = {}
    try:
        with open(env["AIGENT_AUDIT_LOG"], encoding="utf-8") as handle:
            for record in handle:
                try:
                    record = json.loads(record)
                except ValueError:
                    continue
                if record.get("event") == "HOOK_DECISION" and "segments" in record:
                    segments[record.get("session_id")] = record["segments"]
    except FileNotFoundError:
        pass
    judged = []
    for case, (session, verdict, reason) in zip(corpus, results):
        found = segments.get(session)
        if found is None:
            rule = RULE.search(reason or "")
            found = [{"shown": case["command"], "verdict": verdict,
                      "rule": rule.group(1) if rule else None}]
        judged.append(dict(case, verdict=verdict, reason=reason,
                           segments=[{key: segment.get(key) for key in
                                      ("shown", "verdict", "rule", "declaration")}
                                     for segment in found]))
    return judged


def meets(expected, verdict):
    return verdict != "allow" and verdict != "error" if expected == "!allow" else verdict == expected


def percent(part, whole):
    return f"{100.0 * part / whole:5.1f}%" if whole else "    -"


def table(title, groups):
    print(f"\n{title}")
    print(f"  {'':<22} {'cases':>5} {'allow':>13} {'ask':>13} {'deny':>13} "
          f"{'defer':>5} {'error':>5} {'as labelled':>13}")
    for name, cases in groups:
        count = Counter(case["verdict"] for case in cases)
        met = sum(meets(case["expected"], case["verdict"]) for case in cases)
        cells = " ".join(f"{count[v]:>5} {percent(count[v], len(cases))}"
                         for v in ("allow", "ask", "deny"))
        print(f"  {name:<22} {len(cases):>5} {cells} {count['defer']:>5} "
              f"{count['error']:>5} {met:>5} {percent(met, len(cases))}")


def rules_of(case):
    shown = []
    for segment in case["segments"]:
        text = f"{segment.get('verdict')}:{segment.get('rule')}"
        if len(case["segments"]) > 1:
            shown_text = (segment.get("shown") or "").replace("\n", "\\n")[:60]
            text += f" `{shown_text}`"
        shown.append(text)
    return ", ".join(shown)


def rule_tally(title, cases):
    """Which rules gave the asks and the denials: each segment with the line's verdict counts."""
    print(f"\n{title}")
    for verdict in ("deny", "ask"):
        tally = Counter(segment.get("rule") or "?" for case in cases if case["verdict"] == verdict
                        for segment in case["segments"] if segment.get("verdict") == verdict)
        if tally:
            shown = ", ".join(f"{rule} {count}" for rule, count in tally.most_common())
            print(f"  {verdict}: {shown}")


def listing(title, cases):
    print(f"\n{title}: {len(cases)}")
    for case in cases:
        command = case["command"].replace("\n", "\\n")
        if len(command) > 160:
            command = command[:160] + "…"
        print(f"  {case['file']}:{case['line']} [{case['class']}, {case['split']}] "
              f"expected {case['expected']}, got {case['verdict']} ({rules_of(case)})")
        print(f"      {command}")


modes = ("zero", "registry") if args.mode == "both" else (args.mode,)
report, errors, version = {}, 0, ""
try:
    version = subprocess.run([BIN, "--version"], capture_output=True, text=True,
                             env=environment(os.path.join(work, "version"))).stdout.strip()
    print(f"aigent: {BIN} ({version})")
    print(f"corpus: {len(corpus)} cases from {', '.join(os.path.basename(f) for f in files)}"
          f" (split: {args.split}); {args.jobs} at a time; Claude Code PreToolUse events"
          f"{', --route' if args.route else ''}")
    for mode in modes:
        started = time.monotonic()
        judged = run_mode(mode)
        elapsed = time.monotonic() - started
        report[mode] = judged
        label = "zero config" if mode == "zero" else f"registry {os.path.relpath(REGISTRY, ROOT)}"
        print(f"\n==================== {label} ====================")
        print(f"{len(judged)} lines in {elapsed:.1f} s ({1000 * elapsed / len(judged):.0f} ms a line "
              f"wall, {args.jobs} at a time)")
        by_file = defaultdict(list)
        for case in judged:
            by_file[case["file"]].append(case)
        table("per file", sorted(by_file.items()))
        for name, cases in sorted(by_file.items()):
            table(f"{name} per split", sorted(
                (split, [c for c in cases if c["split"] == split])
                for split in {c["split"] for c in cases}))
            table(f"{name} per class", sorted(
                (klass, [c for c in cases if c["class"] == klass])
                for klass in {c["class"] for c in cases}))
            rule_tally(f"{name}: the rules behind the asks and denials (segments)", cases)
        if "destructive.txt" in by_file:
            listing("destructive lines allowed",
                    [c for c in judged if c["file"] == "destructive.txt" and c["verdict"] == "allow"])
        if "everyday.txt" in by_file:
            listing("everyday lines denied",
                    [c for c in judged if c["file"] == "everyday.txt" and c["verdict"] == "deny"])
        if mode == "registry" and "spellings.txt" in by_file:
            listing("spellings not judged as labelled",
                    [c for c in judged if c["file"] == "spellings.txt"
                     and not meets(c["expected"], c["verdict"])])
        if args.mismatches:
            listing("lines whose verdict misses the label",
                    [c for c in judged if not meets(c["expected"], c["verdict"])])
        failed = [c for c in judged if c["verdict"] == "error"]
        if failed:
            errors += len(failed)
            print(f"\nthe hook failed on {len(failed)} lines:")
            for case in failed:
                print(f"  {case['file']}:{case['line']}: {case['reason']}")
finally:
    shutil.rmtree(work, ignore_errors=True)

if args.json:
    with open(args.json, "w", encoding="utf-8") as handle:
        json.dump({"binary": BIN, "version": version, "split": args.split,
                   "route": args.route, "modes": report}, handle, indent=1,
                  ensure_ascii=False)
        handle.write("\n")
    print(f"\nevery case: {args.json}")
sys.exit(1 if errors else 0)
PY
