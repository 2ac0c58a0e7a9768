#!/usr/bin/env python3
"""tools/call latency of an MCP server, from two kinds of client, over
stdio or Streamable HTTP.

    bench_mcp.py raw N -- SERVER COMMAND...       a raw JSON-RPC client, stdio
    bench_mcp.py sdk N -- SERVER COMMAND...       the official Python SDK's
                                                  ClientSession (pip install mcp)
    bench_mcp.py raw-http N -- SERVER COMMAND...  the same two over HTTP: the
    bench_mcp.py sdk-http N -- SERVER COMMAND...  command must serve HTTP
                                                  (`aigent mcp serve --http
                                                  127.0.0.1:0 --token-file F`)
    bench_mcp.py spawn N -- PROGRAM ARGS...       no server: PROGRAM itself,
                                                  started and awaited (the
                                                  floor under any call of it)

Each starts the server, says hello (initialize), calls the tool `noop` with
{"label": "abc"} a few times to warm up, then N times, one after the other,
and prints one line of JSON: the round-trip times' min, p50, p90 and max in
milliseconds. `noop` runs `true`; see scripts/bench-mcp.sh, which builds
the same tool for aigent and for cli-wrap-mcp and runs the clients
against the servers.

Over HTTP the server's URL is read from its stderr (`listening on
http://...`), and the bearer token from the file BENCH_MCP_TOKEN_FILE
names. The SDK's HTTP client is its `streamable_http_client` (one
keep-alive connection); the raw client is `http.client`, also keep-alive.

Standard library only for `raw` and `raw-http`; `sdk` and `sdk-http` need
the `mcp` package.
"""

import http.client
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.parse

WARMUP = 5
ARGUMENTS = {"label": "abc"}


def summary(samples):
    samples = sorted(samples)
    at = lambda q: samples[round((len(samples) - 1) * q)]
    ms = lambda s: round(s * 1000, 3)
    return {
        "n": len(samples),
        "min_ms": ms(samples[0]),
        "p50_ms": ms(at(0.5)),
        "p90_ms": ms(at(0.9)),
        "max_ms": ms(samples[-1]),
    }


def time_raw_calls(request, rounds):
    """Seconds per `tools/call` of `noop` through `request`, after WARMUP."""
    call = {"name": "noop", "arguments": ARGUMENTS}
    samples = []
    for index in range(WARMUP + rounds):
        start = time.perf_counter()
        answer = request("tools/call", call)
        elapsed = time.perf_counter() - start
        result = answer.get("result") or {}
        if result.get("isError") or "error" in answer:
            raise SystemExit(f"the call failed: {answer}")
        if index >= WARMUP:
            samples.append(elapsed)
    return samples


def raw(rounds, command):
    server = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    reader = server.stdout
    next_id = [0]

    def request(method, params):
        next_id[0] += 1
        line = json.dumps(
            {"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}
        )
        server.stdin.write(line.encode() + b"\n")
        while True:
            answer = reader.readline()
            if not answer:
                raise SystemExit(f"the server closed its stdout during {method}")
            message = json.loads(answer)
            if message.get("id") == next_id[0] and "method" not in message:
                return message

    hello = request(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    )
    if "result" not in hello:
        raise SystemExit(f"initialize failed: {hello}")
    server.stdin.write(
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    )
    samples = time_raw_calls(request, rounds)
    server.stdin.close()
    server.wait(timeout=10)
    return samples


def sdk(rounds, command):
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    parameters = StdioServerParameters(
        command=command[0], args=command[1:], env=dict(os.environ)
    )

    async def run():
        samples = []
        with open(os.devnull, "w") as devnull:
            async with stdio_client(parameters, errlog=devnull) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for index in range(WARMUP + rounds):
                        start = time.perf_counter()
                        result = await session.call_tool("noop", ARGUMENTS)
                        elapsed = time.perf_counter() - start
                        # `is_error` in mcp 2.x, `isError` before.
                        if getattr(result, "is_error", getattr(result, "isError", False)):
                            raise SystemExit(f"the call failed: {result}")
                        if index >= WARMUP:
                            samples.append(elapsed)
        return samples

    return anyio.run(run)


class HttpServer:
    """The server as a child process serving HTTP; its URL from stderr."""

    def __init__(self, command):
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 30
        self.url = None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            found = re.search(rb"listening on (http://\S+)", line)
            if found:
                self.url = found.group(1).decode()
                break
        if self.url is None:
            self.process.kill()
            raise SystemExit("the server did not say where it listens")
        # Keep reading stderr so that the server never blocks on it.
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        with open(os.environ["BENCH_MCP_TOKEN_FILE"]) as token:
            self.token = token.read().strip()

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def raw_http(rounds, command):
    server = HttpServer(command)
    url = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(url.hostname, url.port)
    headers = {
        "Authorization": f"Bearer {server.token}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-06-18",
    }
    next_id = [0]

    def request(method, params):
        next_id[0] += 1
        body = json.dumps(
            {"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}
        )
        connection.request("POST", url.path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read()
        if response.status != 200:
            raise SystemExit(f"{method}: HTTP {response.status}: {text[:200]!r}")
        return json.loads(text)

    try:
        hello = request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        if "result" not in hello:
            raise SystemExit(f"initialize failed: {hello}")
        samples = time_raw_calls(request, rounds)
    finally:
        connection.close()
        server.close()
    return samples


def sdk_http(rounds, command):
    import anyio
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    server = HttpServer(command)

    async def run():
        samples = []
        client = create_mcp_http_client(
            headers={"Authorization": f"Bearer {server.token}"}
        )
        async with client:
            async with streamable_http_client(server.url, http_client=client) as (
                read,
                write,
            ):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    for index in range(WARMUP + rounds):
                        start = time.perf_counter()
                        result = await session.call_tool("noop", ARGUMENTS)
                        elapsed = time.perf_counter() - start
                        if getattr(result, "is_error", getattr(result, "isError", False)):
                            raise SystemExit(f"the call failed: {result}")
                        if index >= WARMUP:
                            samples.append(elapsed)
        return samples

    try:
        return anyio.run(run)
    finally:
        server.close()


def spawn(rounds, command):
    """The floor under any server's call: COMMAND itself (not a server),
    started and awaited from here with its output piped, as cli-wrap-mcp
    starts it."""
    samples = []
    for index in range(WARMUP + rounds):
        start = time.perf_counter()
        subprocess.run(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=True,
        )
        elapsed = time.perf_counter() - start
        if index >= WARMUP:
            samples.append(elapsed)
    return samples


CLIENTS = {
    "raw": raw,
    "sdk": sdk,
    "raw-http": raw_http,
    "sdk-http": sdk_http,
    "spawn": spawn,
}


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--" or sys.argv[1] not in CLIENTS:
        raise SystemExit(__doc__)
    client, rounds, command = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    samples = CLIENTS[client](rounds, command)
    print(json.dumps({"client": client, **summary(samples)}))


if __name__ == "__main__":
    main()
