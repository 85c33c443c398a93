"""The bench's measurements (what `python -m sandbox bench` reports is described in
sandbox/bench/__init__.py): each function measures one figure or one group of them and
returns plain numbers; sandbox/bench/report.py prints them."""
from __future__ import annotations

import platform
import resource
import statistics
import time
from typing import Any

from ..games import BenchCase, GamePlugin, plugin, plugins
from ..native import Game, InvalidArgument, Search, SearchParams, core_version, simd_paths
from ..native.params import ALGORITHM
from .gtcfr import gtcfr_figures

TARGETS = {
    "smitsimax_turns_per_s": 3_000_000,
    "python_reference_ratio": 100,
    "bytes_per_node": 32,
    "snapshot_4000_ms": 1.0,
    "search_share_of_engine": 0.45,   # the search keeps this share of the engine's speed
}


def primary() -> tuple[GamePlugin, BenchCase]:
    """The case whose figures are the bench's headline (top-level keys)."""
    for p in plugins():
        for case in p.bench:
            if case.primary:
                return p, case
    raise InvalidArgument("no game declares a primary bench case")


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def engine_steps_per_s(seconds: float, kind: str | None = None,
                       game_params: Any = None) -> float:
    """Random-move turns per second from the start position, in one C loop
    per batch (each playout restarts from the start state when it ends)."""
    if kind is None:
        p, case = primary()
        kind, game_params = p.kind, case.game_params
    g = Game(kind, game_params, seed=1)
    steps, batch = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        steps += g.playouts(20_000, 10_000, seed=batch)
        batch += 1
    rate = steps / (time.perf_counter() - t0)
    g.close()
    return rate


def search_run(turns: int, iterations: int, seed: int = 1,
               params: SearchParams | None = None, kind: str | None = None,
               game_params: Any = None) -> dict[str, Any]:
    """A short match of one search against itself: search, play its best
    joint move, re-root, repeat. Returns totals over all turns. Without a
    kind: the primary case's game and search settings."""
    if kind is None:
        p, case = primary()
        kind, game_params = p.kind, case.game_params
        params = params or SearchParams(**case.search)
    params = params or SearchParams()
    game = Game(kind, game_params, seed=seed)
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

    from ..native import SNAPSHOT_DTYPE
    out = np.zeros(max_nodes, dtype=SNAPSHOT_DTYPE)
    snap = search.snapshot(0, max_nodes, 1, out=out)
    t0 = time.perf_counter()
    for _ in range(repeats):
        search.snapshot(0, max_nodes, 1, out=out)
    return (time.perf_counter() - t0) * 1000.0 / repeats, len(snap)


def rss_bytes_per_node(nodes_target: int, kind: str, game_params: Any,
                       search: Any) -> tuple[float, int]:
    """Resident memory the trees take per node (measured, not sizeof). The
    trees must grow large for page granularity and fixed costs to vanish, so
    the case names a setting where every iteration opens new paths."""
    game = Game(kind, game_params, seed=1)
    rss0 = _rss_bytes()
    search = Search(game, SearchParams(**search), seed=1)
    nodes = 0
    while nodes < nodes_target:
        if search.run(iterations=5_000).stop_reason == "node_cap":
            break
        nodes = sum(search.stats().nodes)
    per_node = (_rss_bytes() - rss0) / max(nodes, 1)
    search.close()
    game.close()
    return round(per_node, 2), nodes


def reference_ratio(p: GamePlugin, case: BenchCase, iterations: int,
                    turns: int) -> dict[str, Any] | None:
    """C and the pure-Python reference on one and the same workload: the
    short self-play match of `turns` turns x `iterations` iterations from
    seed 1. The reference runs it once; C runs it repeatedly (fresh game and
    search each time, median time), since it takes a few milliseconds. The
    two must do identical work (iterations, simulated turns, nodes created),
    else the ratio would compare different things: a mismatch raises.
    None if the game has no reference twin."""
    from ..reference.smitsimax import reference_match
    if p.reference_game(case.game_params, 1) is None:
        return None
    params = SearchParams(**case.search)
    ref = reference_match(lambda seed: p.reference_game(case.game_params, seed), params,
                          iterations, turns, seed=1)
    times = []
    while len(times) < 5 or sum(times) < 300.0:
        run = search_run(turns, iterations, seed=1, params=params, kind=p.kind,
                         game_params=case.game_params)
        run["search"].close()
        run["game"].close()
        times.append(run["ms"])
        same = [(k, ref[k], run[k]) for k in ("iterations", "sim_turns", "nodes_added")
                if ref[k] != run[k]]
        if same:
            raise InvalidArgument(f"bench: the reference and C did different work {same}")
    c_ms = statistics.median(times)
    return {"python_reference_turns_per_s": round(ref["sim_turns"] / (ref["ms"] / 1000.0)),
            "python_reference_c_turns_per_s": round(ref["sim_turns"] / (c_ms / 1000.0)),
            "python_reference_ratio": round(ref["ms"] / c_ms, 1),
            "python_reference_workload": f"{turns} turns x {iterations:,} iterations, "
                                         f"{ref['sim_turns']:,} simulated turns, "
                                         f"{ref['nodes_added']:,} nodes, seed 1 (both sides)"}


def first_move_rate(kind: str, game_params: Any, search: Any, iterations: int,
                    min_seconds: float = 0.3) -> float:
    """Iterations/s of a fresh search from the start position with this
    budget: the median over repeats (fresh game and search each, seeds 1..k)
    until min_seconds of search time, at least three."""
    rates, spent, seed = [], 0.0, 0
    while len(rates) < 3 or spent < min_seconds:
        seed += 1
        with Game(kind, game_params, seed=seed) as g, \
                Search(g, SearchParams(**search), seed=seed) as s:
            r = s.run(iterations=iterations)
        rates.append(r.iterations / max(r.elapsed_ms / 1000.0, 1e-9))
        spent += r.elapsed_ms / 1000.0
    return statistics.median(rates)


def algorithm_rates(kind: str, game_params: Any, search: Any, quick: bool,
                    refusals: dict[str, str] | None = None) -> dict[str, Any]:
    """First-move iterations/s of every algorithm (smitsimax and the
    baselines) with the case's search settings; None where C refuses the
    algorithm for the game (joint-action MCTS on too many joint actions,
    MCGS on more than two players), its message put in `refusals`."""
    iterations = 500 if quick else 2_000
    out: dict[str, Any] = {}
    for name in ALGORITHM:
        try:
            out[name] = round(first_move_rate(kind, game_params, {**search, "algorithm": name},
                                              iterations, 0.05 if quick else 0.2))
        except InvalidArgument as exc:
            out[name] = None
            if refusals is not None:
                refusals[name] = str(exc)
    return out


def match_figures(kind: str, case: BenchCase, quick: bool) -> tuple[dict[str, Any], dict]:
    """The short self-play match of a case: turns/s, iterations/s, depth."""
    run = search_run(turns=case.quick_turns if quick else case.match_turns,
                     iterations=case.quick_iterations if quick else case.match_iterations,
                     params=SearchParams(**case.search), kind=kind,
                     game_params=case.game_params)
    secs = run["ms"] / 1000.0
    out = {"smitsimax_turns_per_s": round(run["sim_turns"] / secs),
           "smitsimax_iterations_per_s": round(run["iterations"] / secs),
           "smitsimax_iterations": run["iterations"],
           "smitsimax_mean_depth": round(run["sim_turns"] / max(run["iterations"], 1), 3)}
    return out, run


def collect_case(p: GamePlugin, case: BenchCase, quick: bool) -> dict[str, Any]:
    """A non-primary case: engine, the short match, first-move rates."""
    res: dict[str, Any] = {"label": case.label}
    res["engine_steps_per_s"] = round(engine_steps_per_s(0.3 if quick else 1.0, p.kind,
                                                         case.game_params))
    with Game(p.kind, case.game_params, seed=1) as g:
        res["engine_agent_turns_per_s"] = res["engine_steps_per_s"] * g.num_agents
    if case.agent_turns_target is not None:
        res["agent_turns_target"] = case.agent_turns_target
    figures, run = match_figures(p.kind, case, quick)
    res.update(figures)
    res["bytes_per_node"] = run["search"].stats().node_bytes
    run["search"].close()
    run["game"].close()
    res["first_move_iterations_per_s"] = {
        str(n): round(first_move_rate(p.kind, case.game_params, case.search, n,
                                      0.1 if quick else 0.3))
        for n in case.first_move}
    if case.first_move_target is not None:
        res["first_move_target"] = case.first_move_target
    res["algorithm_refusals"] = {}
    res["algorithm_iterations_per_s"] = algorithm_rates(p.kind, case.game_params, case.search,
                                                        quick, refusals=res["algorithm_refusals"])
    if case.scenario is not None:
        res["scenario"] = scenario_figures(p, case, quick)
    return res


POLICY_ROWS = {"ucb1": {}, "ucb1_tuned": {"policy": "ucb1_tuned"}, "exp3": {"policy": "exp3"},
               "rm": {"policy": "rm"}, "rm_plus": {"policy": "rm_plus"},
               "ucb1_power": {"backup": "power"}}
def policy_figures(quick: bool, kinds: tuple[str, ...]) -> dict[str, Any]:
    """Per selection policy and game: the game's first bench case's short
    match with only the policy (or backup) changed."""
    out: dict[str, Any] = {}
    for name, change in POLICY_ROWS.items():
        row: dict[str, Any] = {}
        for kind in kinds:
            case = plugin(kind).bench[0]
            # half the case's match: a rate per policy, compared within the
            # row; the full match for all six policies took a third of the
            # bench's minute
            run = search_run(turns=case.quick_turns if quick else
                             max(case.quick_turns, case.match_turns // 2),
                             iterations=case.quick_iterations if quick else case.match_iterations,
                             params=SearchParams(**{**case.search, **change}), kind=kind,
                             game_params=case.game_params)
            secs = max(run["ms"] / 1000.0, 1e-9)
            row[kind] = {"iterations_per_s": round(run["iterations"] / secs),
                         "turns_per_s": round(run["sim_turns"] / secs)}
            row["bytes_per_node"] = run["search"].stats().node_bytes
            run["search"].close()
            run["game"].close()
        out[name] = row
    return out


def _mcgs_run(kind: str, case: BenchCase, playouts: int,
              **change: Any) -> tuple[float, Any, float]:
    """One fresh MCGS search of `playouts` playouts from the case's start
    (seed 1): (playouts/s, its stats, mean playout depth in turns)."""
    search = {**(case.mcgs or {}), "algorithm": "mcgs", **change}
    with Game(kind, case.game_params, seed=1) as g, \
            Search(g, SearchParams(**search), seed=1) as s:
        r = s.run(iterations=playouts)
        if r.iterations != playouts:
            raise InvalidArgument(f"bench: mcgs stopped after {r.iterations} of {playouts} "
                                  f"playouts ({r.stop_reason})")
        return (r.iterations / max(r.elapsed_ms / 1000.0, 1e-9), s.stats(),
                r.sim_turns / r.iterations)


def mcgs_figures(kind: str, case: BenchCase, quick: bool) -> dict[str, Any]:
    """The MCGS section: graph search from the start position, uniform and heuristic
    priors, with and without the transposition table (see sandbox/bench/__init__.py)."""
    playouts = 20_000 if quick else 100_000
    reps = 1 if quick else 3
    settings = ", ".join(f"{k} {v}" for k, v in (case.mcgs or {}).items())
    out: dict[str, Any] = {"label": f"{kind} {case.game_params}, mcgs {settings}, one thread",
                           "playouts": playouts}
    stats: dict[str, Any] = {}
    for name, change in (("uniform", {}), ("heuristic", {"priors": "heuristic"})):
        rates = []
        for _ in range(reps):
            rate, stats[name], depth = _mcgs_run(kind, case, playouts, **change)
            rates.append(rate)
        out[f"playouts_per_s_{name}"] = round(statistics.median(rates))
        out[f"mean_depth_{name}"] = round(depth, 2)
        out[f"nodes_{name}"] = stats[name].nodes[0]
    _, tree, _ = _mcgs_run(kind, case, playouts, transpositions=False)
    with_tt, without = stats["uniform"].nodes[0], tree.nodes[0]
    scale = 100_000 / playouts
    out["nodes_with_table"] = with_tt
    out["nodes_without_table"] = without
    out["nodes_per_100k_with_table"] = round(with_tt * scale)
    out["nodes_per_100k_without_table"] = round(without * scale)
    out["table_saving_percent"] = round(100.0 * (1.0 - with_tt / without), 1)
    out["node_struct_bytes"] = stats["uniform"].node_bytes
    for name in ("uniform", "heuristic"):
        st = stats[name]
        n = st.nodes[0]
        out[f"bytes_per_node_{name}"] = round(
            (st.node_bytes * n + st.edge_bytes + st.prior_bytes) / n, 1)
        out[f"edge_bytes_per_node_{name}"] = round(st.edge_bytes / n, 1)
        out[f"prior_bytes_per_node_{name}"] = round(st.prior_bytes / n, 1)
    out["table_bytes_per_node"] = round(stats["uniform"].table_bytes / with_tt, 1)
    return out


def collect(quick: bool = False, game: str | None = None) -> dict[str, Any]:
    res: dict[str, Any] = {
        "core_version": core_version(),
        "simd_paths": simd_paths(),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    if quick:
        # fewer iterations and shorter timings: a smoke run, not comparable
        # with the full run's figures
        res["quick"] = True
    chosen = [plugin(game)] if game is not None else plugins()
    p0, case0 = primary()
    if p0 in chosen:
        res["scenario"] = case0.label
        res.update(collect_primary(p0, case0, quick))
    others = {}
    for p in chosen:
        for case in p.bench:
            if case is case0:
                continue
            # a game's first case under its kind; a further one (snakes'
            # snakebyte ruleset) under kind:label
            key = p.kind if case is p.bench[0] else f"{p.kind}:{case.label.split(',')[0]}"
            others[key] = collect_case(p, case, quick)
    if others:
        res["games"] = others
    res["policies"] = policy_figures(quick, tuple(p.kind for p in chosen))
    modes = {p.kind: mode_figures(p, quick) for p in chosen if p.bench_modes}
    if modes:
        res["modes"] = modes
    mcgs_case = next(((p, c) for p in chosen for c in p.bench if c.mcgs is not None), None)
    if mcgs_case is not None:
        res["mcgs"] = mcgs_figures(mcgs_case[0].kind, mcgs_case[1], quick)
    outside = {p.kind: r for p in chosen if (r := p.outside_rates(quick)) is not None}
    if outside:
        res["outside"] = outside
    gt = {p.kind: gtcfr_figures(p.kind, c, quick)
          for p in chosen for c in p.bench[:1] if c.gtcfr is not None}
    if gt:
        res["gtcfr"] = gt
    return res


MODE_TARGET = 0.8   # each mode keeps this share of the first (standard) mode's speed


def mode_figures(p: GamePlugin, quick: bool) -> dict[str, Any]:
    """Each of a game's modes (GamePlugin.bench_modes): the engine's random
    steps/s and a fresh Smitsimax search's iterations/s from the start, each
    as a share of the first mode's. The modes are measured in turn, round
    after round, and each keeps its median, so a burst of other work on the
    machine does not land on one mode alone."""
    rounds = 1 if quick else 3
    seconds = 0.15 if quick else 0.4
    iterations = 2_000 if quick else 10_000
    engine: dict[str, list[float]] = {label: [] for label, _ in p.bench_modes}
    search: dict[str, list[float]] = {label: [] for label, _ in p.bench_modes}
    for _ in range(rounds):
        for label, params in p.bench_modes:
            engine[label].append(engine_steps_per_s(seconds, p.kind, params))
            search[label].append(first_move_rate(p.kind, params, p.bench_mode_search,
                                                 iterations, seconds))
    rows = []
    e0 = statistics.median(engine[p.bench_modes[0][0]])
    s0 = statistics.median(search[p.bench_modes[0][0]])
    for label, params in p.bench_modes:
        e, s = statistics.median(engine[label]), statistics.median(search[label])
        rows.append({"label": label, "game_params": dict(params),
                     "engine_steps_per_s": round(e), "engine_ratio": round(e / e0, 3),
                     "search_iterations_per_s": round(s), "search_ratio": round(s / s0, 3)})
    return {"target": MODE_TARGET, "search": dict(p.bench_mode_search),
            "search_iterations": iterations, "rows": rows}


def scenario_figures(p: GamePlugin, case: BenchCase, quick: bool) -> dict[str, Any]:
    """A case's bundled scenario: its first player's search settings over a
    short self-play match (iterations/s, simulated agent-turns/s) and the
    iterations a fresh search makes in the scenario's turn budget."""
    from ..config import load_scenario
    sc = load_scenario(case.scenario)
    params = p.c_params(sc.game_params)
    search = sc.players[0].search
    with Game(p.kind, params, seed=1) as g:
        agents = g.num_agents
    out: dict[str, Any] = {"name": case.scenario, "max_depth": search.max_depth}
    run = search_run(turns=3 if quick else 10, iterations=2_000 if quick else 10_000,
                     params=search, kind=p.kind, game_params=params)
    secs = max(run["ms"] / 1000.0, 1e-9)
    out["smitsimax_iterations_per_s"] = round(run["iterations"] / secs)
    out["smitsimax_agent_turns_per_s"] = round(agents * run["sim_turns"] / secs)
    run["search"].close()
    run["game"].close()
    budget = sc.budget.ms or 50.0
    counts = []
    for seed in range(1, 3 if quick else 6):
        with Game(p.kind, params, seed=seed) as g, Search(g, search, seed=seed) as s:
            counts.append(s.run(ms=budget).iterations)
    out["iterations_per_turn_budget"] = round(statistics.median(counts))
    out["turn_budget_ms"] = budget
    return out


def share_pairs(p: GamePlugin, case: BenchCase, quick: bool) -> tuple[dict[str, Any], dict]:
    """The engine's steps/s and the match's figures in back-to-back pairs
    (three; one in a quick run), and search_share_of_engine: the median of
    the pairs' own ratios, with the figures of the pair that gave it. On
    this shared VM one pair varied by +-10% between runs, a burst of noise
    landing on one side of it; each pair keeps both sides of its ratio in
    the same moment, and the median drops the pair a burst hit. The engine
    gets 0.7 s a pair (2.1 s in all; it had 2 s as one sample). Returns the
    figures and that pair's match run (the others are closed)."""
    pairs, keep = [], None
    try:
        for _ in range(1 if quick else 3):
            engine = round(engine_steps_per_s(0.5 if quick else 0.7))
            figures, run = match_figures(p.kind, case, quick)
            pairs.append((figures["smitsimax_turns_per_s"] / engine, engine, figures, run))
        keep = sorted(pairs, key=lambda q: q[0])[len(pairs) // 2]
    finally:   # every run but the median pair's (all of them on an error)
        for pair in pairs:
            if pair is not keep:
                pair[3]["search"].close()
                pair[3]["game"].close()
    ratio, engine, figures, run = keep
    res = {"engine_steps_per_s": engine, **figures,
           "search_share_of_engine": round(ratio, 3),
           "search_share_of_engine_pairs": [round(q[0], 3) for q in pairs]}
    return res, run


def collect_primary(p: GamePlugin, case: BenchCase, quick: bool) -> dict[str, Any]:
    res, run = share_pairs(p, case, quick)
    ms, rows = snapshot_ms(run["search"])
    res["snapshot_4000_ms"] = round(ms, 4)
    res["snapshot_rows"] = rows
    res["bytes_per_node"] = run["search"].stats().node_bytes
    if case.rss_game_params is not None:
        res["rss_bytes_per_node"], res["rss_nodes_measured"] = rss_bytes_per_node(
            300_000 if quick else 1_500_000, p.kind, case.rss_game_params, case.rss_search or {})
    run["search"].close()
    run["game"].close()

    ref = (reference_ratio(p, case, iterations=150 if quick else 400, turns=2)
           if case.reference else None)
    res.update(ref or {"python_reference_turns_per_s": None, "python_reference_ratio": None})

    res["algorithm_refusals"] = {}
    res["algorithm_iterations_per_s"] = algorithm_rates(p.kind, case.game_params, case.search,
                                                        quick, refusals=res["algorithm_refusals"])
    sig = search_run(turns=5, iterations=5_000, seed=1)
    res["signature"] = sig["nodes_added"]
    res["signature_visits_digest"] = sig["visits_digest"]
    sig["search"].close()
    sig["game"].close()
    return res
