"""Load a served snake the way a hostile client and a busy engine would, and
measure whether real requests are still answered in time. Not a test.

    python tools/battlesnake_load.py                       # 16 hogs + 50 valid, 10 s
    python tools/battlesnake_load.py --hogs 16 --valid 50 --seconds 20 --agent smitsimax
    python tools/battlesnake_load.py --serve-args "--search-slots 4"

Starts `python -m sandbox serve battlesnake AGENT --port 0 --no-record
--max-games N` as its own process (N: room for every valid game, so that
they are searched, not refused). Then, together, for --seconds:
  - `--hogs` clients each send /move requests asking for a 60 s timeout, for
    game ids they never started, one after another on new connections;
  - `--valid` clients each play a game of their own (/start, then /move with
    game.timeout 500 ms, one after another on new connections).
Each answer's time is taken from the connection's start to the whole answer
read. Prints, for the valid requests: how many, p50 / p90 / p99 / max, how
many came after their timeout, how many were a safe move (no core free in
time, or the game refused) and any status but 200; then whether every valid request was
answered within its time.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sandbox.bots.battlesnake.convert import state_json  # noqa: E402
from sandbox.games.snakes.view import decode_snakes  # noqa: E402
from sandbox.native import Game  # noqa: E402


def move_body(gid: str, timeout_ms: int, seed: int) -> bytes:
    """A /move body: turn 0 of a 4-snake 11x11 game."""
    with Game("snakes", "width=11 height=11 snakes=4", seed=seed) as g:
        v = decode_snakes(g.export())
    ids = [f"s{a}" for a in range(4)]
    return json.dumps(state_json(v, 0, ids, ids, game_id=gid, timeout_ms=timeout_ms)).encode()


def request(port: int, path: str, data: bytes, give_up_s: float) -> tuple[int, bytes, float]:
    """(status, body, ms from connect to the whole answer); status 0: no answer."""
    t0 = time.perf_counter()
    head = (f"POST {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n").encode()
    buf = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=give_up_s) as s:
            s.sendall(head + data)
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
    except OSError:
        pass
    ms = (time.perf_counter() - t0) * 1000.0
    try:
        status = int(buf.split(b" ", 2)[1])
    except (IndexError, ValueError):
        status = 0
    return status, buf.partition(b"\r\n\r\n")[2], ms


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hogs", type=int, default=16)
    ap.add_argument("--valid", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--timeout-ms", type=int, default=500, help="the valid requests' timeout")
    ap.add_argument("--agent", default="smitsimax")
    ap.add_argument("--max-games", type=int, default=None,
                    help="the server's --max-games (default: room for every valid game)")
    ap.add_argument("--serve-args", default="", help="more flags for the server")
    args = ap.parse_args()

    # the sandbox this file belongs to, unless PYTHONPATH names another
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH") or str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "serve", "battlesnake", args.agent, "--port", "0",
         "--no-record", "--max-games", str(args.max_games or args.valid + 4),
         *shlex.split(args.serve_args)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        line = server.stdout.readline()
        port = int(line.split("http://", 1)[1].split(" ", 1)[0].rsplit(":", 1)[1])
        hog = [move_body(f"hog-{k}", 60_000, 100 + k) for k in range(args.hogs)]
        valid = [move_body(f"valid-{k}", args.timeout_ms, 200 + k) for k in range(args.valid)]
        for k, b in enumerate(valid):
            request(port, "/start", b, 5.0)
        results: list[tuple[int, float, bool]] = []
        hog_ms: list[float] = []
        lock = threading.Lock()
        stop = time.monotonic() + args.seconds
        start = threading.Barrier(args.hogs + args.valid)

        def run_hog(b: bytes) -> None:
            start.wait()
            while time.monotonic() < stop:
                status, _, ms = request(port, "/move", b, 70.0)
                with lock:
                    hog_ms.append(ms)

        def run_valid(b: bytes) -> None:
            start.wait()
            while time.monotonic() < stop:
                status, data, ms = request(port, "/move", b, 5.0)
                busy = b'"shout": "busy' in data or b'"shout": "refused' in data
                with lock:
                    results.append((status, ms, busy))

        threads = [threading.Thread(target=run_hog, args=(b,)) for b in hog]
        threads += [threading.Thread(target=run_valid, args=(b,)) for b in valid]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.terminate()
        server.wait(10)

    ms = sorted(r[1] for r in results if r[0] == 200)
    if not ms:
        print("no valid request was answered")
        return 1
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [ms[0]] * 99
    late = sum(1 for x in ms if x > args.timeout_ms)
    busy = sum(1 for r in results if r[2])
    bad = sum(1 for r in results if r[0] != 200)
    statuses = sorted({r[0] for r in results if r[0] != 200})
    print(f"battlesnake /move under load on loopback: {args.hogs} clients asking for 60 s "
          f"(ids never started), {args.valid} valid clients (timeout {args.timeout_ms} ms), "
          f"{args.seconds:g} s, agent {args.agent}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"valid: {len(results)} requests; answer ms p50 {q[49]:.1f}  p90 {q[89]:.1f}  "
          f"p99 {q[98]:.1f}  max {ms[-1]:.1f}; late {late}; safe moves {busy}; "
          f"not 200: {bad}" + (f" (status {statuses}; 0: no answer)" if bad else ""))
    if hog_ms:
        print(f"hogs: {len(hog_ms)} requests answered, max {max(hog_ms):.0f} ms")
    ok = late == 0 and bad == 0
    print(f"target: every valid request answered within {args.timeout_ms} ms: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
