"""Measure a served snake's /move answer time on loopback. Not a test.

    python tools/battlesnake_latency.py                    # 1000 requests
    python tools/battlesnake_latency.py --requests 250 --agent smitsimax

Starts `python -m sandbox serve battlesnake AGENT --port 0 --no-record` as
its own process (so the client and the server do not share an
interpreter), plays 4-snake 11x11 games with seeded random moves in the C
game, and sends each turn's state as a /move request with game.timeout
500 ms, one request at a time, each on a new connection (as the official
engine does). Prints the answer time (request sent → answer read) as
p50 / p90 / p99 / max, and whether p99 met the target (timeout - 50 ms).
"""
from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from sandbox.bots.battlesnake.convert import state_json  # noqa: E402
from sandbox.games.snakes.view import decode_snakes  # noqa: E402
from sandbox.native import Game  # noqa: E402


def states(n: int, timeout_ms: int, seed: int):
    """(path, body) of n /move requests (plus /start and /end around games)."""
    rng = np.random.default_rng(seed)
    sent = 0
    g_no = 0
    while sent < n:
        g_no += 1
        gid = f"latency-{seed}-{g_no}"
        with Game("snakes", "width=11 height=11 snakes=4", seed=seed + g_no) as g:
            ids = [f"s{a}" for a in range(4)]
            first = True
            while not g.is_terminal and sent < n:
                v = decode_snakes(g.export())
                live = [a for a, s in enumerate(v.snakes) if s.alive]
                you = live[0]
                st = state_json(v, you, ids, ids, game_id=gid, timeout_ms=timeout_ms)
                if first:
                    yield "/start", st
                    first = False
                yield "/move", st
                sent += 1
                # seeded random moves that do not turn back into the neck
                joint = []
                for a, s in enumerate(v.snakes):
                    ok = [m for m in range(4) if s.direction is None
                          or (m // 2 != s.direction // 2 or m == s.direction)]
                    joint.append(int(rng.choice(ok)) if s.alive else None)
                g.step(joint)
            yield "/end", state_json(decode_snakes(g.export()), you, ids, ids, game_id=gid,
                                     timeout_ms=timeout_ms)


def post(port: int, path: str, obj: dict) -> tuple[int, bytes, float]:
    data = json.dumps(obj).encode()
    t0 = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body, (time.perf_counter() - t0) * 1000.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=1000)
    ap.add_argument("--agent", default="smitsimax")
    ap.add_argument("--timeout-ms", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "serve", "battlesnake",
                             args.agent, "--port", "0", "--no-record"], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        port = int(line.split("http://127.0.0.1:")[1].split()[0])
        times, moves = [], {}
        for path, st in states(args.requests, args.timeout_ms, args.seed):
            status, body, ms = post(port, path, st)
            if status != 200:
                print(f"error: {path} answered HTTP {status}: {body[:200]!r}")
                return 1
            if path == "/move":
                times.append(ms)
                m = json.loads(body)["move"]
                moves[m] = moves.get(m, 0) + 1
    finally:
        proc.terminate()
        proc.wait(10)
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(round(p / 100 * (len(times) - 1))))]
    target = args.timeout_ms - 50
    p99 = pct(99)
    print(f"battlesnake /move on loopback: {len(times)} requests, 11x11, 4 snakes, "
          f"timeout {args.timeout_ms} ms, agent {args.agent}")
    print(f"answer ms: p50 {pct(50):.1f}  p90 {pct(90):.1f}  p99 {p99:.1f}  max {times[-1]:.1f}"
          f"  mean {statistics.fmean(times):.1f}")
    print(f"target p99 <= {target} ms: {'met' if p99 <= target else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
