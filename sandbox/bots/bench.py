"""The per-turn overhead of a process player, for `python -m sandbox bench`.

An instant-reply bot (sandbox/bots/instant_bot.py) plays every agent of the
default scenario's game; each turn is timed from the controller's start()
(reading the state, the legal moves) to its reply being ready, and the bot's
own time (from having read the turn's line to writing its answer, on the
same monotonic clock, reported in its debug message) is taken out. What is
left is what the sandbox adds: the state's JSON, the pipe both ways, the
wait, parsing and checking the reply. Each match's first turn includes the
bot's start-up and is left out.

Beside it, the sandbox's own CPU time in the same window (this thread's
CPU clock: what the turn cost us while not waiting for the bot or for a
CPU), and the floor: a bare pipe round trip to a Python process that
echoes a line (`pipe_round_trips`), measured in the same run. On a busy
machine both tails are the wait for a CPU, not the sandbox's own work.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from ..config import load_scenario, scenario_from_dict
from ..sim.match import Match

TARGET_P95_MS = 1.0
BOT = Path(__file__).with_name("instant_bot.py")


def measure(turns: int = 1000) -> dict:
    base = load_scenario(None)
    n = len(base.players)
    agents = [a for i in range(n) for a in base.player_agents(i)]
    data = base.model_dump(mode="json", exclude_unset=True)
    data["players"] = [{"name": "instant", "controller": "process", "agents": sorted(agents),
                        "command": [sys.executable, str(BOT)], "timeout_ms": 1000,
                        "first_turn_ms": 10_000}]
    data["record"] = {"enabled": False}
    sc = scenario_from_dict(data, source="bench")
    overhead: list[float] = []
    cpu: list[float] = []
    seed = 1
    while len(overhead) < turns:
        with Match(sc, seed=seed) as m:
            c = m.controllers[0]
            first = True
            while not m.over and len(overhead) < turns:
                t0, c0 = time.monotonic(), time.thread_time()
                c.start(m.turn, m.world.game, m.budget_for(0))
                c.wait()          # headless: the turn runs on this thread
                t1, c1 = time.monotonic(), time.thread_time()
                info = c.turn_info(m.turn)
                m._thinking = True          # the turn was started above, by hand
                m.complete_turn()
                if first:
                    first = False
                    continue
                if info is None or info.failures or not info.debug:
                    raise RuntimeError(f"bench bot failed: {info}")
                t_in, t_out = (float(x) for x in info.debug["message"].split())
                overhead.append((t1 - t0 - (t_out - t_in)) * 1000.0)
                cpu.append((c1 - c0) * 1000.0)
        seed += 1
    overhead.sort()
    cpu.sort()
    k = len(overhead)
    pipe = pipe_round_trips(turns)
    return {"turns": k, "game": sc.game, "agents": len(agents),
            "p50_ms": round(overhead[k // 2], 4), "p95_ms": round(overhead[int(k * 0.95)], 4),
            "max_ms": round(overhead[-1], 4), "target_p95_ms": TARGET_P95_MS,
            "own_cpu_p50_ms": round(cpu[k // 2], 4), "own_cpu_p95_ms": round(cpu[int(k * 0.95)], 4),
            "met": overhead[int(k * 0.95)] <= TARGET_P95_MS,
            "pipe_p50_ms": round(pipe[len(pipe) // 2], 4),
            "pipe_p95_ms": round(pipe[int(len(pipe) * 0.95)], 4)}


_ECHO = ("import sys\nr, w, f = sys.stdin.readline, sys.stdout.write, sys.stdout.flush\n"
         "while True:\n    line = r()\n    if not line:\n        break\n    w(line)\n    f()\n")


def pipe_round_trips(n: int, size: int = 1000) -> list[float]:
    """The floor under the overhead: a bare line sent to a Python process
    that writes it straight back, timed n times (ms, sorted). What the
    machine charges for two processes handing a turn to each other."""
    import subprocess
    p = subprocess.Popen([sys.executable, "-c", _ECHO], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, bufsize=0)
    try:
        line = b"x" * (size - 1) + b"\n"
        out = []
        for i in range(n + 20):
            t = time.monotonic()
            p.stdin.write(line)
            p.stdout.readline()
            if i >= 20:         # the interpreter's start is not a round trip
                out.append((time.monotonic() - t) * 1000.0)
    finally:
        p.stdin.close()
        p.wait(timeout=10)
    return sorted(out)
