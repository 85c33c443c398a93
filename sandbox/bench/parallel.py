"""`python -m sandbox bench --parallel`: Smitsimax's parallel modes measured
against each other in one run.

Per registered game (its first bench case; `--game NAME` for one) and per
mode
(serial, wu_uct, tree, root, leaf), a fresh search from the start position
runs for a fixed wall time at each thread count from 1 to the machine's
cores, in rounds (every thread count once a round, back to back); the
figure is the median iterations per second over the rounds (leaf:
selections per second, and its rollouts per second beside it). The ratio
at 2 threads is taken inside each round, against the same mode at 1 thread
just before it, and the median of those ratios is reported with their range:
one pair of 0.5 s runs varied by more than ±20% on a shared 2-vCPU VM.
The search settings are the bench case's, with rollout on for leaf (it
needs it). A row per thread count is the scaling table a user with more
cores reads their figure from.

The run starts with the machine's cross-core cache-line latency (C's
ping-pong, sbx_line_transfer_ns), and each shared-tree row says how many
such transfers an iteration can afford at the 1.8x target: 2 threads reach
it only if an iteration pays at most (2 / 1.8 - 1) x its one-thread time in
extra waiting, and each node statistic the other thread wrote since this
thread last read it costs about one transfer.

Two-player games also get MCGS rows (mcgs_serial, mcgs_wu_uct, mcgs_tree:
the same case with algorithm = mcgs), MCGS's parallel modes being those two.
"""
from __future__ import annotations

import os
from typing import Any

from ..games import plugin, plugins
from ..native import Game, SandboxError, Search, SearchParams, cores, line_transfer_ns

MODES = ("serial", "wu_uct", "tree", "root", "leaf")
MCGS_MODES = ("serial", "wu_uct", "tree")
TARGET_2T = {"wu_uct": 1.8, "tree": 1.8, "mcgs_wu_uct": 1.8, "mcgs_tree": 1.8}  # 2 threads / 1


def _case(p):
    return next((c for c in p.bench if c.primary), p.bench[0])


def rate(kind: str, game_params: Any, params: SearchParams, seconds: float,
         seed: int) -> tuple[float, float]:
    """One fresh search of `seconds`: (iterations/s, root visits/s of agent
    0, which counts leaf parallelism's rollouts)."""
    with Game(kind, game_params, seed=1 + seed) as g, Search(g, params, 7 + seed) as s:
        res = s.run(ms=seconds * 1000.0)
        secs = max(res.elapsed_ms / 1000.0, 1e-9)
        return res.iterations / secs, s.stats().root_visits[0] / secs


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def collect(quick: bool = False, game: str | None = None,
            max_threads: int | None = None) -> dict[str, Any]:
    top = min(cores(), max_threads or cores())
    seconds, rounds = (0.15, 1) if quick else (0.4, 5)
    out: dict[str, Any] = {"quick": quick, "cores": cores(), "os_cpu_count": os.cpu_count(),
                           "seconds_per_cell": seconds, "rounds": rounds, "games": {}}
    try:   # the median of three: the first can meet a core still waking up
        out["line_transfer_ns"] = round(_median([line_transfer_ns(50_000 if quick else 200_000)
                                                 for _ in range(3)]), 1)
    except SandboxError as e:   # fewer than two usable CPUs, or not done in 10 s
        out["line_transfer_ns"], out["line_transfer_note"] = None, str(e)
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
            # rounds of every thread count back to back: a ratio is taken
            # inside a round (the machine's state is shared by its cells),
            # and the medians over rounds are reported
            its: dict[int, list[float]] = {t: [] for t in counts}
            rolls: dict[int, list[float]] = {t: [] for t in counts}
            ratios: list[float] = []
            for r in range(rounds):
                for t in counts:
                    a, b = rate(kind, case.game_params, params.replace(threads=t), seconds, r)
                    its[t].append(a)
                    rolls[t].append(b)
                if 2 in its:
                    ratios.append(its[2][-1] / its[1][-1])
            row: dict[str, Any] = {"iterations_per_s": {t: round(_median(v))
                                                        for t, v in its.items()}}
            if mode == "leaf":
                row["rollouts_per_s"] = {t: round(_median(v)) for t, v in rolls.items()}
            if mode in ("wu_uct", "tree") and out["line_transfer_ns"]:
                budget = (2 / 1.8 - 1) * 1e9 / _median(its[1])
                row["budget_ns_at_target"] = round(budget)
                row["budget_transfers_at_target"] = round(budget / out["line_transfer_ns"], 1)
            if ratios:
                row["ratio_2_threads"] = round(_median(ratios), 2)
                row["ratio_2_threads_range"] = [round(min(ratios), 2), round(max(ratios), 2)]
            rows[label] = row
        out["games"][kind] = {"case": case.label, "modes": rows}
    return out


def print_report(res: dict[str, Any]) -> None:
    quick = res.get("quick", False)
    if quick:   # as bench --quick: short cells, one round, no target judged
        print("QUICK: one round of short cells; smoke figures, no target judged")
    print(f"parallel search — {res['cores']} cores; median of {res['rounds']} rounds of "
          f"{res['seconds_per_cell']} s per cell; iterations/s (leaf: selections/s, "
          "rollouts/s in brackets); 2 thr / 1: the median of the rounds' own ratios [range]")
    lt = res.get("line_transfer_ns")
    print(f"  cache line between two cores: {lt} ns one way (ping-pong, median of 3)" if lt
          else f"  cache line between two cores: not measured ({res.get('line_transfer_note')})")
    if lt and lt > 1000:   # a line moves in tens of ns; microseconds are a time slice
        print("    (microseconds: the other core was busy, so each move waited for a time "
              "slice; the budgets below are not the machine's)")
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
            lo_hi = row.get("ratio_2_threads_range")
            mark = "" if ratio is None else f"{ratio:.2f}x" + (
                f" [{lo_hi[0]:.2f}, {lo_hi[1]:.2f}]" if lo_hi and res["rounds"] > 1 else "") + (
                f" (target {target})" if target and not quick else "") + (
                " (quick)" if quick and ratio is not None else "")
            print("    " + f"{mode:<12}" + "".join(cells) + f"  {mark}")
            if "budget_ns_at_target" in row:
                print(f"    {'':<12}at 1.8x an iteration may wait {row['budget_ns_at_target']} ns "
                      f"more: about {row['budget_transfers_at_target']} line transfers")
