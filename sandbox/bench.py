"""`python -m sandbox bench`: the project's own speed and memory figures.

Everything is measured as a ratio or rate inside one run on this machine, on
the default scenario's game (4 snakes, 11x11) with Smitsimax at depth 10:

  engine_steps_per_s         random-move turns of the C engine (C loop)
  smitsimax_turns_per_s      simulated turns per second, one thread, over a
                             short match (the search re-roots every turn)
  smitsimax_iterations_per_s iterations per second in the same run
  python_reference_*         the same search in pure Python (sandbox.reference)
  python_reference_ratio     C turns/s over Python turns/s
  bytes_per_node             sizeof(tree node); rss_bytes_per_node measures it
  snapshot_4000_ms           C cost of a 4,000-node tree snapshot
  signature                  nodes created by a fixed-seed, fixed-iteration run:
                             changes exactly when the search's behaviour does

With --recording it also plays the default scenario at 50 ms per player per
turn with and without a replay recorder (sandbox.replay.overhead) and reports
the recorder's share of the turn time (target <= 5%).
"""
from __future__ import annotations

import json
import platform
import resource
import sys
import time
from typing import Any

from .native import Game, Search, SearchParams, core_version

GAME_PARAMS = {"width": 11, "height": 11, "snakes": 4}
DEPTH = 10
TARGETS = {
    "smitsimax_turns_per_s": 3_000_000,
    "python_reference_ratio": 100,
    "bytes_per_node": 32,
    "snapshot_4000_ms": 1.0,
}


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def engine_steps_per_s(seconds: float) -> float:
    """Random-move turns per second from the start position, in one C loop
    per batch (each playout restarts from the start state when it ends)."""
    g = Game("snakes", GAME_PARAMS, seed=1)
    steps, batch = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += g.playouts(20_000, 10_000, seed=batch)
        batch += 1
    rate = steps / (time.perf_counter() - t0)
    g.close()
    return rate


def search_run(turns: int, iterations: int, seed: int = 1,
               params: SearchParams | None = None) -> dict[str, Any]:
    """A short match of one search against itself: search, play its best
    joint move, re-root, repeat. Returns totals over all turns."""
    params = params or SearchParams(max_depth=DEPTH)
    game = Game("snakes", GAME_PARAMS, seed=seed)
    search = Search(game, params, seed=seed)
    total = {"iterations": 0, "sim_turns": 0, "ms": 0.0, "nodes_added": 0, "turns": 0}
    visits_digest = 0
    for t in range(turns):
        r = search.run(iterations=iterations)
        total["iterations"] += r.iterations
        total["sim_turns"] += r.sim_turns
        total["ms"] += r.elapsed_ms
        total["nodes_added"] += r.nodes_added
        total["turns"] += 1
        for a in range(game.num_agents):
            for st in search.root_stats(a):
                visits_digest = (visits_digest * 1_000_003 + st.visits) % (1 << 61)
        joint = search.best_moves()
        root = search.root_game()
        if root.is_terminal:
            root.close()
            break
        root.step(joint)
        search.advance(joint, new_root=root)
        done = root.is_terminal
        root.close()
        if done:
            break
    total["visits_digest"] = visits_digest
    total["search"] = search
    total["game"] = game
    return total


def snapshot_ms(search: Search, max_nodes: int = 4000, repeats: int = 100) -> tuple[float, int]:
    import numpy as np

    from .native import SNAPSHOT_DTYPE
    out = np.zeros(max_nodes, dtype=SNAPSHOT_DTYPE)
    snap = search.snapshot(0, max_nodes, 1, out=out)
    t0 = time.perf_counter()
    for _ in range(repeats):
        search.snapshot(0, max_nodes, 1, out=out)
    return (time.perf_counter() - t0) * 1000.0 / repeats, len(snap)


def rss_bytes_per_node(nodes_target: int) -> tuple[float, int]:
    """Resident memory the trees take per node (measured, not sizeof). The
    trees must grow large for page granularity and fixed costs to vanish, so
    this uses a setting where every iteration opens new paths: one snake on a
    25x25 board, depth 40, random selection steered off certain death."""
    game = Game("snakes", {"width": 25, "height": 25, "snakes": 1}, seed=1)
    rss0 = _rss_bytes()
    search = Search(game, SearchParams(max_depth=40, random_threshold=1_000_000,
                                       death_penalty=True, death_min_visits=1,
                                       node_cap=1 << 22), seed=1)
    nodes = 0
    while nodes < nodes_target:
        if search.run(iterations=5_000).stop_reason == "node_cap":
            break
        nodes = sum(search.stats().nodes)
    per_node = (_rss_bytes() - rss0) / max(nodes, 1)
    search.close()
    game.close()
    return round(per_node, 2), nodes


def reference_turns_per_s(iterations: int, turns: int) -> float | None:
    """The pure-Python reference running the same search (same game, seed,
    parameters); None if the reference package is not present."""
    try:
        from .reference.smitsimax import bench_reference
    except ImportError:
        return None
    return bench_reference(GAME_PARAMS, SearchParams(max_depth=DEPTH), iterations, turns, seed=1)


def collect(quick: bool = False) -> dict[str, Any]:
    res: dict[str, Any] = {
        "core_version": core_version(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "scenario": "snakes 4p 11x11, smitsimax depth 10, one thread",
    }
    res["engine_steps_per_s"] = round(engine_steps_per_s(0.5 if quick else 2.0))

    run = search_run(turns=4 if quick else 10, iterations=10_000 if quick else 30_000)
    secs = run["ms"] / 1000.0
    res["smitsimax_turns_per_s"] = round(run["sim_turns"] / secs)
    res["smitsimax_iterations_per_s"] = round(run["iterations"] / secs)
    res["smitsimax_iterations"] = run["iterations"]
    res["smitsimax_mean_depth"] = round(run["sim_turns"] / max(run["iterations"], 1), 3)
    ms, rows = snapshot_ms(run["search"])
    res["snapshot_4000_ms"] = round(ms, 4)
    res["snapshot_rows"] = rows
    res["bytes_per_node"] = run["search"].stats().node_bytes
    res["rss_bytes_per_node"], res["rss_nodes_measured"] = rss_bytes_per_node(
        300_000 if quick else 1_500_000)
    run["search"].close()
    run["game"].close()

    ref = reference_turns_per_s(iterations=150 if quick else 400, turns=2)
    res["python_reference_turns_per_s"] = round(ref) if ref else None
    res["python_reference_ratio"] = round(res["smitsimax_turns_per_s"] / ref, 1) if ref else None

    sig = search_run(turns=5, iterations=5_000, seed=1)
    res["signature"] = sig["nodes_added"]
    res["signature_visits_digest"] = sig["visits_digest"]
    sig["search"].close()
    sig["game"].close()
    return res


RECORDING_TARGET = 0.05   # recorder's share of turn time at 50 ms budgets (issue 4)


def run_bench(json_out: bool = False, quick: bool = False, recording: bool = False) -> int:
    t0 = time.perf_counter()
    res = collect(quick=quick)
    if recording:
        from .replay.overhead import measure
        res["recording"] = measure(turns=10 if quick else 40, reps=1 if quick else 2)
    res["bench_seconds"] = round(time.perf_counter() - t0, 1)
    if json_out:
        print(json.dumps(res))
        return 0
    print(f"sandbox bench — core {res['core_version']}, Python {res['python']}, {res['scenario']}")

    def line(label: str, key: str, unit: str = "", fmt: str = "{:,.0f}") -> None:
        v = res.get(key)
        text = "n/a" if v is None else fmt.format(v) + unit
        target = TARGETS.get(key)
        mark = ""
        if target is not None and v is not None:
            ok = v <= target if key in ("bytes_per_node", "snapshot_4000_ms") else v >= target
            cmp = "<=" if key in ("bytes_per_node", "snapshot_4000_ms") else ">="
            mark = f"   target {cmp} {target:,}  {'met' if ok else 'NOT MET'}"
        print(f"  {label:<34}{text:>16}{mark}")

    line("engine steps/s", "engine_steps_per_s")
    line("smitsimax simulated turns/s", "smitsimax_turns_per_s")
    line("smitsimax iterations/s", "smitsimax_iterations_per_s")
    line("python reference turns/s", "python_reference_turns_per_s")
    line("C / python reference ratio", "python_reference_ratio", "x", "{:,.1f}")
    line("bytes per node (sizeof)", "bytes_per_node")
    line("bytes per node (measured RSS)", "rss_bytes_per_node", "", "{:,.2f}")
    line("snapshot of 4,000 nodes", "snapshot_4000_ms", " ms", "{:.3f}")
    line("signature (nodes, 5x5000 it, seed 1)", "signature", "", "{}")
    if recording:
        r = res["recording"]
        print(f"  recording at {r['budget_ms']:g} ms per player per turn "
              f"(mean turn {r['no_record_mean_turn_ms']:.1f} ms unrecorded):")
        for key, x in r.items():
            if not key.startswith("record"):
                continue
            share = x["direct_share"]
            mark = "met" if share <= RECORDING_TARGET else "NOT MET"
            print(f"    {key:<32}{100 * share:>14.2f}%   target <= 5%  {mark}"
                  f"   ({x['recorder_ms_per_turn']:.3f} ms/turn, "
                  f"{x['bytes_per_turn'] / 1024:.1f} KiB/turn, a/b {100 * x['ab_share']:+.1f}%)")
    print(f"  finished in {res['bench_seconds']} s")
    sys.stdout.flush()
    return 0
