#!/usr/bin/env bash
# How far `aigent hook learn` turns the hook's asks into allows (issue 42),
# measured on the labelled agent-traffic corpus (tests/fixtures/hook/traffic/):
#
#   sessions   everyday.txt in two halves, A (every other line, from the
#              second) and B (the rest); each half goes to `aigent hook
#              --client claude-code` as one agent session with no registry,
#              `hook learn --write` reads the audit log those calls wrote,
#              and the half is replayed. Half A is reported twice: with the
#              proposals as aigent wrote them (unsure ones stay destructive:
#              the hook still asks), and after a review that follows the
#              corpus labels (the person sets the class with --class: reads
#              for lines labelled allow in a reading class,
#              runs_project_code for build/test/run, changes_project for the
#              rest labelled allow; lines labelled ask keep aigent's). Half
#              B after the same review; then both together.
#   carried    learned from one half (reviewed), replayed on the other: how
#              far proposals carry to lines not seen.
#   lint       `schema lint` of every registry written.
#   destructive every line of destructive.txt (never learned from) judged
#              with each registry written, against the catalog alone: none
#              may be allowed by a learned declaration.
#
# Nothing touches the real HOME or audit log; the environment is built from
# PATH alone. AIGENT=/path/to/aigent names the binary, else target/debug/aigent
# (built if missing). The figures are the result; the script asserts none.
#
#   scripts/hook-learn-replay.sh [--jobs N] [--json FILE] [--misses] [--keep]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 - "$root" "$@" <<'PY'
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = sys.argv[1]
TRAFFIC = os.path.join(ROOT, "tests/fixtures/hook/traffic")
parser = argparse.ArgumentParser(prog="scripts/hook-learn-replay.sh")
parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
parser.add_argument("--json", metavar="FILE")
parser.add_argument("--keep", action="store_true",
                    help="keep the working directory (logs, registries) and print where it is")
parser.add_argument("--misses", action="store_true",
                    help="list each line asked for lack of a declaration and labelled allow that is not allowed after learning")
args = parser.parse_args(sys.argv[2:])
sys.stdout.reconfigure(line_buffering=True)

BIN = os.environ.get("AIGENT", "")
if not BIN:
    subprocess.run(["cargo", "build", "--quiet"], cwd=ROOT, check=True)
    BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"),
                       "debug", "aigent")
BIN = os.path.abspath(BIN)
if not os.access(BIN, os.X_OK):
    sys.exit(f"hook-learn-replay: no aigent binary at {BIN}")

LEARNABLE = {"unmatched", "not_declared_form"}
READING = {"read", "read-outside", "search", "vcs-read", "gh-read", "infra-read", "secret"}
CODE = {"build", "test", "run"}


def decode(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "nrt\\":
            out.append({"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}[text[i + 1]])
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def corpus(name):
    cases = []
    with open(os.path.join(TRAFFIC, name), encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            token, klass, command = line.split("\t", 2)
            newlines = token.endswith("/nl")
            token = token[:-3] if newlines else token
            cases.append({"expected": token, "class": klass,
                          "command": decode(command) if newlines else command})
    return cases


work = tempfile.mkdtemp(prefix="aigent-hook-learn.")
home = os.path.join(work, "home")
project = os.path.join(work, "project")
ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "NO_COLOR": "1",
    "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
    "XDG_CACHE_HOME": os.path.join(home, ".cache"),
    "XDG_STATE_HOME": os.path.join(home, ".local/state"),
}
os.makedirs(project)
with open(os.path.join(TRAFFIC, "project.txt"), encoding="utf-8") as handle:
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
subprocess.run(["git", "init", "-q"], cwd=project, env=ENV, check=True)


def hook(command, registry, log, session):
    env = dict(ENV, AIGENT_AUDIT_LOG=log)
    event = json.dumps({"session_id": session, "cwd": project, "hook_event_name": "PreToolUse",
                        "tool_name": "Bash", "tool_input": {"command": command}})
    argv = [BIN] + (["--commands", registry] if registry else []) + ["hook", "--client", "claude-code"]
    done = subprocess.run(argv, input=event.encode(), capture_output=True, env=env, cwd=project,
                          timeout=60)
    try:
        return json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]
    except (ValueError, KeyError, TypeError):
        return "deny" if done.returncode == 2 else "error"


def run_all(cases, registry, log, session_of):
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        return list(pool.map(lambda case: hook(case["command"], registry, log,
                                                session_of(case)), cases))


def rules_by_line(log):
    """The rules of each line's refused segments, from the log's records."""
    found = {}
    with open(log, encoding="utf-8") as handle:
        for raw in handle:
            record = json.loads(raw)
            if record.get("event") != "HOOK_DECISION" or record.get("command_line") is None:
                continue
            found[record["command_line"]] = [(segment["rule"], segment["shown"])
                                             for segment in record.get("segments", [])
                                             if segment["verdict"] != "allow"]
    return found


def learn(registry, log, extra):
    os.makedirs(registry, exist_ok=True)
    env = dict(ENV, AIGENT_AUDIT_LOG=log)
    done = subprocess.run([BIN, "--commands", registry, "--output", "json", "hook", "learn",
                           "--cwd", project, "--write"] + extra,
                          capture_output=True, env=env, cwd=project, timeout=900)
    envelope = json.loads(done.stdout)
    if not envelope.get("ok"):
        sys.exit(f"hook learn failed: {envelope.get('error')}")
    return envelope["data"]


def review_session(case):
    if case["expected"] != "allow":
        return "review-keep"
    if case["class"] in READING:
        return "review-reads"
    if case["class"] in CODE:
        return "review-code"
    return "review-changes"


report = {}


def summary(name, cases, before, after, rules, covered):
    """`covered`: the segments a proposal of `hook learn` covers."""
    asked = [i for i, verdict in enumerate(before) if verdict == "ask"]
    learnable = [i for i in asked if rules.get(cases[i]["command"])
                 and {rule for rule, _ in rules[cases[i]["command"]]} <= LEARNABLE]
    approved = [i for i in learnable if cases[i]["expected"] == "allow"]
    proposed = [i for i in approved
                if all(shown in covered for _, shown in rules[cases[i]["command"]])]
    now = lambda ids: sum(1 for i in ids if after[i] == "allow")
    row = {"lines": len(cases), "asked": len(asked), "asked_for_lack_of_a_declaration": len(learnable),
           "of_those_labelled_allow": len(approved),
           "asked_now_allowed": now(asked), "learnable_now_allowed": now(learnable),
           "labelled_allow_now_allowed": now(approved),
           "of_those_proposed_for": len(proposed), "proposed_for_now_allowed": now(proposed),
           "allowed_before": before.count("allow"), "allowed_after": after.count("allow")}
    if args.misses:
        for i in approved:
            if after[i] != "allow":
                mark = " [a proposal covered it]" if i in proposed else ""
                print(f"    MISSED ({after[i]}){mark}: {cases[i]['command'][:160]}")
    pct = lambda part, whole: f"{100.0 * part / whole:5.1f}%" if whole else "   n/a"
    print(f"{name}")
    print(f"  {len(cases)} lines; allowed {row['allowed_before']} before, {row['allowed_after']} after")
    print(f"  asked: {len(asked)}; for lack of a declaration (unmatched, not_declared_form): {len(learnable)}"
          f" ({len(approved)} labelled allow)")
    print(f"  now allowed: {now(asked)} of the asked {pct(now(asked), len(asked))};"
          f" {now(learnable)} of those asked for lack of a declaration {pct(now(learnable), len(learnable))};"
          f" {now(approved)} of those labelled allow {pct(now(approved), len(approved))};"
          f" {now(proposed)} of the {len(proposed)} of those that aigent proposed a declaration for"
          f" {pct(now(proposed), len(proposed))}")
    return row


def lint(registry):
    """Findings of `schema lint` on a written registry: (errors, warnings)."""
    done = subprocess.run([BIN, "--commands", registry, "--output", "json", "schema", "lint"],
                          capture_output=True, env=dict(ENV, AIGENT_AUDIT_LOG=os.devnull),
                          cwd=project, timeout=300)
    text = done.stdout.decode("utf-8", "replace")
    errors = len(re.findall(r'"severity":\s*"error"', text))
    warnings = len(re.findall(r'"severity":\s*"warning"', text))
    return done.returncode, errors, warnings


def reviewed_learn(registry, log):
    """`hook learn --write` once per review session, as a person following the labels would."""
    for session, klass in (("review-reads", "reads"), ("review-code", "runs-project-code"),
                           ("review-changes", "changes-project"), ("review-keep", None)):
        learn(registry, log, ["--session", session] + (["--class", klass] if klass else []))


def covered_by(data):
    return {line for proposal in data["proposals"] for line in proposal["covers"]}


# The everyday corpus in two halves (every other line): each half is one
# agent session, logged by the hook with no registry.
everyday = corpus("everyday.txt")
halves = {"A": everyday[1::2], "B": everyday[0::2]}
logs, befores, rules = {}, {}, {}
for name, cases in halves.items():
    logs[name] = os.path.join(work, f"session-{name}.jsonl")
    befores[name] = run_all(cases, None, logs[name], review_session)
    rules[name] = rules_by_line(logs[name])
registries, lints = {}, {}

# 1. Half A as aigent proposes it (no review: unsure proposals stay destructive).
proposed = os.path.join(work, "A-as-proposed")
data = learn(proposed, logs["A"], [])
registries["A-as-proposed"] = proposed
after = run_all(halves["A"], proposed, os.path.join(work, "replay-A0.jsonl"), review_session)
print(f"half A, proposals as written: {len(data['proposals'])} "
      f"({sum(1 for p in data['proposals'] if p['unsure'])} unsure, so destructive); "
      f"{len(data['not_learnable'])} not learnable")
covered = {"A": covered_by(data)}
report["session_A_as_proposed"] = summary("session A, proposals as aigent wrote them", halves["A"],
                                          befores["A"], after, rules["A"], covered["A"])

# 2. Each half learned from its own log after a review, and replayed.
afters = {}
for name in halves:
    registry = os.path.join(work, f"{name}-reviewed")
    reviewed_learn(registry, logs[name])
    registries[f"{name}-reviewed"] = registry
    data = learn(os.path.join(work, f"{name}-dry"), logs[name], [])
    covered[name] = covered_by(data)
    afters[name] = run_all(halves[name], registry, os.path.join(work, f"replay-{name}.jsonl"),
                           review_session)
    report[f"session_{name}_reviewed"] = summary(
        f"session {name}, learned from its own log after a review by the corpus labels",
        halves[name], befores[name], afters[name], rules[name], covered[name])

# 3. Carried over: learned from one half, replayed on the other.
for source, target in (("B", "A"), ("A", "B")):
    after = run_all(halves[target], registries[f"{source}-reviewed"],
                    os.path.join(work, f"replay-{source}{target}.jsonl"), review_session)
    report[f"carried_{source}_to_{target}"] = summary(
        f"half {target}, learned from half {source} (reviewed): what carries to lines not seen",
        halves[target], befores[target], after, rules[target], covered[target])

# Both sessions together: the whole everyday corpus, each half learned from itself.
both = {key: report["session_A_reviewed"][key] + report["session_B_reviewed"][key]
        for key in report["session_A_reviewed"]}
report["sessions_reviewed_total"] = both
pct = lambda part, whole: f"{100.0 * part / whole:5.1f}%" if whole else "   n/a"
print("both sessions (the whole everyday corpus, each half learned from its own log)")
print(f"  {both['lines']} lines; asked {both['asked']}; for lack of a declaration "
      f"{both['asked_for_lack_of_a_declaration']} ({both['of_those_labelled_allow']} labelled allow)")
print(f"  now allowed: {both['labelled_allow_now_allowed']} of those labelled allow "
      f"{pct(both['labelled_allow_now_allowed'], both['of_those_labelled_allow'])}; "
      f"{both['proposed_for_now_allowed']} of the {both['of_those_proposed_for']} that aigent proposed "
      f"a declaration for {pct(both['proposed_for_now_allowed'], both['of_those_proposed_for'])}")

# 4. Every written proposal lints clean.
print("schema lint of every written registry")
for name, registry in registries.items():
    status, errors, warnings = lint(registry)
    count = len([f for f in os.listdir(registry) if f.endswith(".json")])
    print(f"  {name}: {count} declarations, exit {status}, {errors} errors, {warnings} warnings")
    lints[name] = {"declarations": count, "exit": status, "errors": errors, "warnings": warnings}
report["lint"] = lints

# 5. The destructive corpus (never learned from) against every learned registry.
destructive = corpus("destructive.txt")
baseline = run_all(destructive, None, os.path.join(work, "d0.jsonl"), lambda case: "d")
print("destructive.txt")
print(f"  {len(destructive)} lines; allowed with the catalog alone: {baseline.count('allow')}")
report["destructive"] = {"lines": len(destructive), "allowed_catalog_alone": baseline.count("allow")}
for name, registry in registries.items():
    verdicts = run_all(destructive, registry, os.path.join(work, f"d-{name}.jsonl"), lambda case: "d")
    newly = [destructive[i]["command"] for i, verdict in enumerate(verdicts)
             if verdict == "allow" and baseline[i] != "allow"]
    print(f"  with the {name} registry: allowed {verdicts.count('allow')}, newly allowed {len(newly)}")
    for line in newly:
        print(f"    NEWLY ALLOWED: {line}")
    report["destructive"][name] = {"allowed": verdicts.count("allow"), "newly_allowed": newly}
if args.json:
    with open(args.json, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2)
if args.keep:
    print(f"kept: {work}")
else:
    shutil.rmtree(work, ignore_errors=True)
PY
