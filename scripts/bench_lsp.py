#!/usr/bin/env python3
"""`aigent lsp` under hostile input: peak memory and time per scenario.

Each scenario starts a fresh server under /usr/bin/time -v, sends its
messages, waits for the answer that shows they were handled, then shuts the
server down. Prints the server's maximum resident set size (MiB) and the
seconds from the first hostile byte to that answer.

    scripts/bench_lsp.py [--bin target/debug/aigent] [SCENARIO...]

Scenarios: note32 (one 32 MiB notification of tiny JSON values), change32
(a 32 MiB didChange of tiny content changes), uris (40 empty documents with
4 MiB URIs), edits (one didChange with 10,000 small edits on an 8 MiB
document), badframe (`Content-Length: abc`), baseline (initialize and exit).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

FRAME_CAP = 32 * 1024 * 1024


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(obj) -> bytes:
    return frame(json.dumps(obj, separators=(",", ":")).encode())


class Server:
    def __init__(self, binary, workdir):
        env = dict(os.environ)
        env["HOME"] = workdir
        env["XDG_CONFIG_HOME"] = workdir
        env["AIGENT_AUDIT_LOG"] = os.path.join(workdir, "audit.jsonl")
        self.proc = subprocess.Popen(
            ["/usr/bin/time", "-v", binary, "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=workdir,
        )
        self.messages = []
        self.cond = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    with self.cond:
                        self.messages.append(None)
                        self.cond.notify_all()
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = out.read(length)
            with self.cond:
                self.messages.append(json.loads(body))
                self.cond.notify_all()

    def send(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def wait_for(self, wanted, timeout=600):
        deadline = time.time() + timeout
        with self.cond:
            while True:
                for index, msg in enumerate(self.messages):
                    if msg is None:
                        return None
                    if wanted(msg):
                        return self.messages.pop(index)
                left = deadline - time.time()
                if left <= 0:
                    raise TimeoutError("no answer")
                self.cond.wait(left)

    def initialize(self, workdir):
        self.send(message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "rootUri": "file://" + workdir}}))
        self.wait_for(lambda m: m.get("id") == 1)
        self.send(message({"jsonrpc": "2.0", "method": "initialized", "params": {}}))

    def ping(self, id_):
        """A hover on nothing: answered once everything before it is handled."""
        self.send(message({"jsonrpc": "2.0", "id": id_, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": "file:///nowhere"}, "position": {"line": 0, "character": 0}}}))
        return self.wait_for(lambda m: m.get("id") == id_)

    def finish(self):
        try:
            self.send(message({"jsonrpc": "2.0", "id": 99999, "method": "shutdown"}))
            self.wait_for(lambda m: m.get("id") == 99999, timeout=600)
            self.send(message({"jsonrpc": "2.0", "method": "exit"}))
            self.proc.stdin.close()
        except (BrokenPipeError, TimeoutError):
            pass
        self.proc.wait()
        stderr = self.proc.stderr.read().decode(errors="replace")
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", stderr)
        return int(rss.group(1)) / 1024 if rss else float("nan")


def tiny_values(prefix: bytes, suffix: bytes, item: bytes) -> bytes:
    room = FRAME_CAP - len(prefix) - len(suffix)
    count = (room + 1) // (len(item) + 1)
    return prefix + b",".join([item] * count) + suffix


def note32(server, workdir):
    body = tiny_values(b'{"jsonrpc":"2.0","method":"$/aigentBench","params":[', b"]}", b"{}")
    started = time.time()
    server.send(frame(body))
    server.ping(2)
    return time.time() - started


def open_doc(server, uri, text, version=1):
    server.send(message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "markdown", "version": version, "text": text}}}))


def change32(server, workdir):
    uri = "file://" + workdir + "/skills/a/SKILL.md"
    open_doc(server, uri, "---\nname: a\ndescription: x\n---\n")
    prefix = ('{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":'
              '{"uri":"%s","version":2},"contentChanges":[' % uri).encode()
    body = tiny_values(prefix, b"]}}", b'{"text":""}')
    started = time.time()
    server.send(frame(body))
    server.ping(2)
    return time.time() - started


def uris(server, workdir):
    started = time.time()
    for index in range(40):
        uri = "file:///" + ("d%02d" % index) + "/" + "x" * (4 * 1024 * 1024) + "/SKILL.md"
        open_doc(server, uri, "")
    server.ping(2)
    return time.time() - started


def edits(server, workdir):
    uri = "file://" + workdir + "/skills/a/SKILL.md"
    line = "a line of text in a big document, forty-eight b\n"
    text = "---\nname: a\ndescription: x\n---\n" + line * (8 * 1024 * 1024 // len(line))
    open_doc(server, uri, text)
    server.ping(2)
    changes = []
    for index in range(10_000):
        at = {"line": 10 + index, "character": 2}
        changes.append({"range": {"start": at, "end": at}, "text": "x"})
    started = time.time()
    server.send(message({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}}))
    server.ping(3)
    return time.time() - started


def badframe(server, workdir):
    started = time.time()
    server.send(b'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":5,"method":"shutdown"}')
    answer = server.wait_for(lambda m: m.get("error") is not None, timeout=30)
    assert answer is not None and "abc" in answer["error"]["message"], answer
    return time.time() - started


def baseline(server, workdir):
    return 0.0


SCENARIOS = {f.__name__: f for f in [baseline, note32, change32, uris, edits, badframe]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default="target/debug/aigent")
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    args = parser.parse_args()
    binary = os.path.abspath(args.bin)
    print("binary: %s" % binary)
    print("%-10s %12s %10s" % ("scenario", "max_rss_MiB", "seconds"))
    for name in args.scenarios:
        with tempfile.TemporaryDirectory() as workdir:
            server = Server(binary, workdir)
            server.initialize(workdir)
            try:
                seconds = SCENARIOS[name](server, workdir)
            except (TimeoutError, BrokenPipeError, AssertionError) as err:
                seconds = float("nan")
                print("%s: %r" % (name, err), file=sys.stderr)
            rss = server.finish()
            print("%-10s %12.1f %10.2f" % (name, rss, seconds), flush=True)


if __name__ == "__main__":
    main()
