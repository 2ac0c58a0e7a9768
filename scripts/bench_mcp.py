#!/usr/bin/env python3
"""tools/call latency of an MCP stdio server, from two kinds of client.

    bench_mcp.py raw N -- SERVER COMMAND...   a raw JSON-RPC client
    bench_mcp.py sdk N -- SERVER COMMAND...   the official Python SDK's
                                              ClientSession (pip install mcp)

Both start the server, say hello (initialize), call the tool `noop` with
{"label": "abc"} a few times to warm up, then N times, one after the other,
and print one line of JSON: the round-trip times' min, p50, p90 and max in
milliseconds. `noop` runs `true`; see scripts/bench-mcp.sh, which builds
the same tool for aigent and for cli-wrap-mcp and runs both clients
against both servers.

Standard library only for `raw`; `sdk` needs the `mcp` package.
"""

import json
import os
import subprocess
import sys
import time

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


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--" or sys.argv[1] not in ("raw", "sdk"):
        raise SystemExit(__doc__)
    client, rounds, command = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
    samples = (raw if client == "raw" else sdk)(rounds, command)
    print(json.dumps({"client": client, **summary(samples)}))


if __name__ == "__main__":
    main()
