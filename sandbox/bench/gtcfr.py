"""The bench's GT-CFR section: growing-tree CFR's speed and memory per game.

For every bench case that declares GT-CFR settings (BenchCase.gtcfr), a
fresh search from the start position (seed 1, one thread):

  expansions_per_s      expansion simulations per second over the first
                        `expansions` (2,000; --quick 300) of the search
  update_nodes_per_s    interior nodes the regret updates visited per second
                        in the same run (the stats' update_nodes): the rate
                        of the work that grows with the tree
  bytes_per_node        node struct + the statistics pool (regrets, averages,
                        joint-action values, child ids, live lists) over the
                        nodes, from C's own stats
  growth                the cost of one expansion (its update included)
                        when the tree has reached 1k, 4k, 16k, 64k nodes
                        (--quick: up to 16k): ms per expansion and update
                        nodes per expansion over a block of expansions
                        from that size, so the table shows how the cost
                        grows with the tree (GT-CFR's updates walk the
                        whole interior every time: about linear in the size)

The cost at a size is measured on one growing search: it runs in slices
until the tree passes the size, then times the next block (BLOCK
expansions, or fewer if the arena would fill).
"""
from __future__ import annotations

import time
from typing import Any

from ..games import BenchCase
from ..native import Game, Search, SearchParams

SIZES = (1_000, 4_000, 16_000, 64_000)
QUICK_SIZES = (1_000, 4_000, 16_000)
BLOCK = 20            # expansions timed at each size
MAX_SECONDS = 60.0    # a case gives up growing past this (the row says so)


def _rate(s: Search, expansions: int) -> tuple[float, float, Any]:
    """(expansions/s, update nodes/s, stats) of `expansions` more expansions."""
    before = s.stats().update_nodes
    t = time.perf_counter()
    r = s.run(iterations=expansions)
    dt = max(time.perf_counter() - t, 1e-9)
    st = s.stats()
    return r.iterations / dt, (st.update_nodes - before) / dt, st


def growth(kind: str, game_params: Any, search: dict[str, Any],
           sizes: tuple[int, ...]) -> list[dict[str, Any]]:
    """Per size: the tree's nodes when timed, ms per expansion and update
    nodes per expansion over the next block; None figures where the search
    could not grow that far (arena full, or MAX_SECONDS spent)."""
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with Game(kind, game_params, seed=1) as g, \
            Search(g, SearchParams(**search), seed=1) as s:
        for size in sizes:
            stop = ""
            while s.stats().nodes[0] < size:
                r = s.run(iterations=10)
                if r.stop_reason == "node_cap" or r.iterations == 0:
                    stop = "arena full"
                    break
                if time.perf_counter() - started > MAX_SECONDS:
                    stop = f"over {MAX_SECONDS:g} s"
                    break
            if stop:
                rows.append({"size": size, "nodes": s.stats().nodes[0], "ms_per_expansion": None,
                             "update_nodes_per_expansion": None, "note": stop})
                continue
            nodes = s.stats().nodes[0]
            before = s.stats().update_nodes
            t = time.perf_counter()
            r = s.run(iterations=BLOCK)
            dt = time.perf_counter() - t
            n = max(r.iterations, 1)
            rows.append({"size": size, "nodes": nodes,
                         "ms_per_expansion": round(1000.0 * dt / n, 4),
                         "update_nodes_per_expansion": round(
                             (s.stats().update_nodes - before) / n, 1), "note": ""})
    return rows


def gtcfr_figures(kind: str, case: BenchCase, quick: bool) -> dict[str, Any]:
    search = {**(case.gtcfr or {}), "algorithm": "gtcfr"}
    expansions = 300 if quick else 2_000
    settings = ", ".join(f"{k} {v}" for k, v in (case.gtcfr or {}).items()) or "defaults"
    with Game(kind, case.game_params, seed=1) as g, \
            Search(g, SearchParams(**search), seed=1) as s:
        rate, upd, st = _rate(s, expansions)
    n = max(st.nodes[0], 1)
    return {
        "label": f"{kind} " + ", ".join(f"{k} {v}" for k, v in case.game_params.items())
                 + f"; gtcfr {settings}, one thread",
        "expansions": expansions,
        "expansions_per_s": round(rate),
        "update_nodes_per_s": round(upd),
        "nodes": st.nodes[0],
        "node_struct_bytes": st.node_bytes,
        "bytes_per_node": round((st.node_bytes * n + st.edge_bytes) / n, 1),
        "growth": growth(kind, case.game_params, search, QUICK_SIZES if quick else SIZES),
    }


def print_and_rows(res: dict[str, Any], rows: Any, line: Any, tag: str) -> None:
    """The text report's GT-CFR lines (report.py's `line` helper) and the
    Markdown rows."""
    for kind, m in res.get("gtcfr", {}).items():
        print(f" GT-CFR: {m['label']}")
        rows.section(f"GT-CFR: {m['label']}, {m['expansions']:,} expansions from the start, "
                     "seed 1")
        print(f"  {m['expansions']:,} expansions from the start, seed 1")
        line(m, "expansions/s", "expansions_per_s")
        line(m, "update nodes/s (regret updates)", "update_nodes_per_s")
        line(m, "bytes/node (node + statistics)", "bytes_per_node", "", "{:,.1f}")
        print(f"    (node struct {m['node_struct_bytes']} B; {m['nodes']:,} nodes){tag}")
        print(f"  cost of an expansion as the tree grows (one search, the next {BLOCK}):")
        for r in m["growth"]:
            note = f" ({r['note']})" if r["note"] else ""
            line(r, f"  at {r['nodes']:,} nodes: ms/expansion{note}", "ms_per_expansion", "",
                 "{:.3f}")
            line(r, f"  at {r['nodes']:,} nodes: update nodes/exp", "update_nodes_per_expansion")
