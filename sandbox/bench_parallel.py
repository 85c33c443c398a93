"""`python -m sandbox bench --parallel`: Smitsimax's parallel modes measured
against each other in one run.

Per registered game (its first bench case; `--game NAME` for one) and per
mode
(serial, wu_uct, tree, root, leaf), a fresh search from the start position
runs for a fixed wall time at each thread count from 1 to the machine's
cores; the figure is iterations per second (leaf: selections per second,
and its rollouts per second beside it). The ratio at 2 threads is against
the same mode at 1 thread in the same run, so a loaded machine slows both.
The search settings are the bench case's, with rollout on for leaf (it
needs it). A row per thread count is the scaling table a user with more
cores reads their figure from.

Two-player games also get MCGS rows (mcgs_serial, mcgs_wu_uct, mcgs_tree:
the same case with algorithm = mcgs), MCGS's parallel modes being those two.
"""
from __future__ import annotations

import os
from typing import Any

from .games import plugin, plugins
from .native import Game, Search, SearchParams, cores

MODES = ("serial", "wu_uct", "tree", "root", "leaf")
MCGS_MODES = ("serial", "wu_uct", "tree")
TARGET_2T = {"wu_uct": 1.8, "tree": 1.8, "mcgs_wu_uct": 1.8, "mcgs_tree": 1.8}  # issue 15


def _case(p):
    return next((c for c in p.bench if c.primary), p.bench[0])


def rate(kind: str, game_params: Any, params: SearchParams, seconds: float,
         repeats: int) -> tuple[float, float]:
    """Best of `repeats` fresh searches of `seconds` each: (iterations/s,
    root visits/s of agent 0, which counts leaf parallelism's rollouts)."""
    best = (0.0, 0.0)
    for r in range(repeats):
        with Game(kind, game_params, seed=1 + r) as g, Search(g, params, 7 + r) as s:
            res = s.run(ms=seconds * 1000.0)
            secs = max(res.elapsed_ms / 1000.0, 1e-9)
            visits = s.stats().root_visits[0]
            cand = (res.iterations / secs, visits / secs)
            if cand[0] > best[0]:
                best = cand
    return best


def collect(quick: bool = False, game: str | None = None,
            max_threads: int | None = None) -> dict[str, Any]:
    top = min(cores(), max_threads or cores())
    seconds, repeats = (0.15, 1) if quick else (0.5, 2)
    out: dict[str, Any] = {"cores": cores(), "os_cpu_count": os.cpu_count(),
                           "seconds_per_cell": seconds, "repeats": repeats, "games": {}}
    for p in ([plugin(game)] if game else plugins()):
        if not p.bench:
            continue
        kind, case = p.kind, _case(p)
        base = SearchParams(**{**dict(case.search), "node_cap": 1 << 23})
        rows: dict[str, Any] = {}
        with Game(kind, case.game_params, seed=1) as g:
            two_player = g.num_agents == 2
        plan = [(m, m, base.replace(parallel=m, rollout=base.rollout or m == "leaf"))
                for m in MODES]
        if two_player:
            plan += [(f"mcgs_{m}", m, base.replace(algorithm="mcgs", parallel=m))
                     for m in MCGS_MODES]
        for label, mode, params in plan:
            counts = range(1, top + 1) if mode != "serial" else range(1, 2)
            its, rolls = {}, {}
            for t in counts:
                its[t], rolls[t] = rate(kind, case.game_params, params.replace(threads=t),
                                        seconds, repeats)
            row: dict[str, Any] = {"iterations_per_s": {t: round(v) for t, v in its.items()}}
            if mode == "leaf":
                row["rollouts_per_s"] = {t: round(v) for t, v in rolls.items()}
            if 2 in its:
                row["ratio_2_threads"] = round(its[2] / its[1], 2)
            rows[label] = row
        out["games"][kind] = {"case": case.label, "modes": rows}
    return out


def print_report(res: dict[str, Any]) -> None:
    print(f"parallel search — {res['cores']} cores; best of {res['repeats']} x "
          f"{res['seconds_per_cell']} s per cell; iterations/s (leaf: selections/s, "
          "rollouts/s in brackets)")
    for kind, g in res["games"].items():
        print(f"  {kind} ({g['case']})")
        counts = sorted({t for row in g["modes"].values() for t in row["iterations_per_s"]})
        print("    " + f"{'mode':<12}" + "".join(f"{f'{t} thr':>14}" for t in counts)
              + f"{'2 thr / 1':>11}")
        for mode, row in g["modes"].items():
            cells = []
            for t in counts:
                v = row["iterations_per_s"].get(t)
                cell = "" if v is None else f"{v:,}"
                if v is not None and mode == "leaf":
                    cell = f"{v:,} [{row['rollouts_per_s'][t]:,}]"
                cells.append(f"{cell:>14}" if mode != "leaf" else f"{cell:>22}")
            ratio = row.get("ratio_2_threads")
            target = TARGET_2T.get(mode)
            mark = "" if ratio is None else f"{ratio:.2f}x" + (
                f" (target {target})" if target else "")
            print("    " + f"{mode:<12}" + "".join(cells) + f"  {mark}")
