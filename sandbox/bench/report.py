"""`python -m sandbox bench`: run the measurements (sandbox/bench/figures.py) and print them,
each figure beside its target, as text, one JSON object or a Markdown page."""
from __future__ import annotations

import json
import os
import shlex
import sys
import time
from contextlib import redirect_stdout

from .figures import TARGETS, collect
from .gtcfr import print_and_rows as print_gtcfr
from .markdown import Rows, check_writable, write_page

QUICK_NOTE = "smaller budgets and shorter timings, not comparable with a full run"
OUTSIDE_TARGET = 10.0   # our iterations a second against OpenSpiel's C++ MCTS simulations
RECORDING_TARGET = 0.05   # the recorder's share of the turn time at 50 ms budgets


def run_bench(json_out: bool = False, quick: bool = False, recording: bool = False,
              game: str | None = None, tournament: bool = False,
              explorer: bool = False, markdown: str | None = None) -> int:
    """Measure, then print the figures (text, or one JSON object); with `markdown`, also
    write them as a Markdown page to that file (sandbox/bench/markdown.py)."""
    if markdown is not None:
        check_writable(markdown)   # before minutes of measuring, not after
    command = _command(quick, recording, game, tournament, explorer, markdown)
    if explorer:   # the tree explorer's frames alone (sandbox/bench/explorer.py)
        return _run_explorer(json_out, quick, markdown, command)
    t0 = time.perf_counter()
    res = collect(quick=quick, game=game)
    if game is None:
        # a process player's per-turn overhead (sandbox/bots/bench.py)
        from ..bots.bench import measure as bot_measure
        res["process_agent"] = bot_measure(turns=300 if quick else 1000)
    if tournament:
        from ..tournament.benchcase import measure as tournament_measure

        def t_progress(what: str) -> None:
            if sys.stderr.isatty():
                print(f"\rtournament games/s: {what}   ", end="", file=sys.stderr, flush=True)

        res["tournament"] = tournament_measure(quick=quick, progress=t_progress)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    if quick:
        res["note"] = QUICK_NOTE
    if recording:
        from ..replay.overhead import measure
        turns = 10 if quick else 40

        def progress(k: int, total: int, what: str) -> None:
            # on stderr (stdout may be the JSON): these matches take a while
            end = "" if sys.stderr.isatty() else "\n"
            lead = "\r" if sys.stderr.isatty() else ""
            print(f"{lead}recording cost: match {k}/{total} ({what}, {turns} turns at 50 ms "
                  f"per player)   ", end=end, file=sys.stderr, flush=True)

        res["recording"] = measure(turns=turns, reps=1 if quick else 2, progress=progress)
        if sys.stderr.isatty():
            print(file=sys.stderr)
    res["bench_seconds"] = round(time.perf_counter() - t0, 1)
    rows = Rows()
    if json_out:
        print(json.dumps(res))
        if markdown is not None:   # the page's rows come from the text report, unshown
            with open(os.devnull, "w", encoding="utf-8") as sink, redirect_stdout(sink):
                print_text(res, quick, recording, tournament, rows)
    else:
        print_text(res, quick, recording, tournament, rows)
    if markdown is not None:
        write_page(markdown, res, rows, command, quick)
    return 0


def _command(quick: bool, recording: bool, game: str | None, tournament: bool,
             explorer: bool, markdown: str | None) -> str:
    """The command line that measures the same figures again (and rewrites the page)."""
    flags = [flag for flag, on in (("--quick", quick), ("--recording", recording),
                                   ("--tournament", tournament), ("--explorer", explorer)) if on]
    if game is not None:
        flags += ["--game", shlex.quote(game)]
    if markdown is not None:
        flags += ["--markdown", shlex.quote(markdown)]
    return " ".join(["python -m sandbox bench", *flags])


def print_text(res: dict, quick: bool, recording: bool, tournament: bool, rows: Rows) -> None:
    """The text report; every figure printed is also a row of `rows` (section, figure,
    value, target, verdict) for the Markdown page."""
    print(f"sandbox bench — core {res['core_version']}, Python {res['python']}, "
          f"{res['simd_paths']}" + (f" — QUICK: {QUICK_NOTE}" if quick else ""))
    tag = "  (quick)" if quick else ""

    def algorithm_lines(src: dict) -> None:
        for name, rate in src.get("algorithm_iterations_per_s", {}).items():
            if rate is None:
                why = src.get("algorithm_refusals", {}).get(name, "")
                # the core's message names the rule (a game it does not search)
                why = why if len(why) <= 70 else why[:67] + "..."
                print(f"  {name + ' first move: it/s':<38}{'refused':>16}"
                      + (f"  ({why})" if why else ""))
                rows.add(f"{name} first move: it/s", "refused" + (f": {why}" if why else ""))
            else:
                line({"v": rate}, f"{name} first move: it/s", "v")

    def line(src: dict, label: str, key: str, unit: str = "", fmt: str = "{:,.0f}",
             target: float | None = None, lower_is_better: bool = False) -> None:
        v = src.get(key)
        text = "n/a" if v is None else fmt.format(v) + unit
        target = TARGETS.get(key) if target is None and src is res else target
        mark = tag
        target_text = verdict = ""
        if target is not None and v is not None:
            low = lower_is_better or key in ("bytes_per_node", "snapshot_4000_ms")
            ok = v <= target if low else v >= target
            target_text = f"{'<=' if low else '>='} {target:,}"
            verdict = "not judged (quick)" if quick else "met" if ok else "not met"
            mark = f"   target {target_text}  " + ("NOT MET" if verdict == "not met" else verdict)
        print(f"  {label:<38}{text:>16}{mark}")
        rows.add(label.strip(), text, target_text, verdict)

    if "scenario" in res:
        print(f" {res['scenario']}")
        rows.section(res["scenario"])
        line(res, "engine steps/s", "engine_steps_per_s")
        line(res, "smitsimax simulated turns/s", "smitsimax_turns_per_s")
        line(res, "smitsimax iterations/s", "smitsimax_iterations_per_s")
        line(res, "search turns/s / engine steps/s", "search_share_of_engine", "", "{:.3f}")
        if len(res.get("search_share_of_engine_pairs") or ()) > 1:
            print(f"    (the median of {len(res['search_share_of_engine_pairs'])} engine-then-"
                  "match pairs: " + ", ".join(f"{q:.3f}" for q in
                                              res["search_share_of_engine_pairs"]) + ")")
        line(res, "python reference turns/s", "python_reference_turns_per_s")
        line(res, "C turns/s, the same workload", "python_reference_c_turns_per_s")
        line(res, "C / python reference, same work", "python_reference_ratio", "x",
             "{:,.1f}")
        if res.get("python_reference_workload"):
            print(f"    (workload: {res['python_reference_workload']})")
        line(res, "bytes per node (sizeof)", "bytes_per_node")
        line(res, "bytes per node (measured RSS)", "rss_bytes_per_node", "", "{:,.2f}")
        line(res, "snapshot of 4,000 nodes", "snapshot_4000_ms", " ms", "{:.3f}")
        line(res, "signature (nodes, 5x5000 it, seed 1)", "signature", "", "{}")
        algorithm_lines(res)
    for kind, g in res.get("games", {}).items():
        print(f" {g['label']}")
        rows.section(g["label"])
        line(g, "engine steps/s", "engine_steps_per_s")
        line(g, "engine agent-turns/s (turns x agents)", "engine_agent_turns_per_s",
             target=g.get("agent_turns_target"))
        line(g, "smitsimax simulated turns/s (match)", "smitsimax_turns_per_s")
        line(g, "smitsimax iterations/s (match)", "smitsimax_iterations_per_s")
        for n, rate in g["first_move_iterations_per_s"].items():
            line({"v": rate}, f"first move, {int(n):,} iterations: it/s", "v",
                 target=g.get("first_move_target"))
        algorithm_lines(g)
        if g.get("scenario"):
            sc = g["scenario"]
            print(f"  scenario {sc['name']} (its search, depth {sc['max_depth']}):")
            rows.section(f"{g['label']}: scenario {sc['name']} (its search, "
                         f"depth {sc['max_depth']})")
            line(sc, "  smitsimax iterations/s (match)", "smitsimax_iterations_per_s")
            line(sc, "  simulated agent-turns/s", "smitsimax_agent_turns_per_s")
            line(sc, f"  iterations in {sc['turn_budget_ms']:g} ms (first move)",
                 "iterations_per_turn_budget")
    for kind, m in res.get("modes", {}).items():
        first = m["rows"][0]["label"]
        print(f" {kind} modes: engine steps/s and a fresh search's it/s ({m['search_iterations']:,} "
              f"iterations), each also as a share of {first}'s")
        rows.section(f"{kind} modes (engine steps/s, search it/s; shares of {first})")
        for r in m["rows"]:
            judged = m["target"] if r is not m["rows"][0] else None
            line(r, f"{r['label']}: engine", "engine_steps_per_s")
            line(r, "  engine share", "engine_ratio", "", "{:.2f}", target=judged)
            line(r, "  search it/s", "search_iterations_per_s")
            line(r, "  search share", "search_ratio", "", "{:.2f}")
    if res.get("policies"):
        kinds = [k for k in next(iter(res["policies"].values())) if k != "bytes_per_node"]
        print(" selection policies (each case's match, only the policy changed): it/s")
        print(f"  {'policy':<14}" + "".join(f"{k:>16}" for k in kinds) + f"{'bytes/node':>12}")
        for name, row in res["policies"].items():
            print(f"  {name:<14}" + "".join(f"{row[k]['iterations_per_s']:>16,}" for k in kinds)
                  + f"{row['bytes_per_node']:>12}{tag}")
        rows.section("selection policies (each case's match, only the policy changed)")
        for name, row in res["policies"].items():
            for k in kinds:
                rows.add(f"{name}, {k}: it/s", f"{row[k]['iterations_per_s']:,}")
            rows.add(f"{name}: bytes/node", f"{row['bytes_per_node']}")
    for kind, o in res.get("outside", {}).items():
        print(f" {kind}: iterations/s against OpenSpiel's C++ MCTSBot ({o['openspiel_sims_per_s']:,} "
              "simulations/s) on the same goofspiel-13 positions, one run")
        rows.section(f"{kind}: against OpenSpiel's C++ MCTSBot on goofspiel-13 positions")
        line(o, "OpenSpiel MCTSBot: simulations/s", "openspiel_sims_per_s")
        for r in o["rows"]:
            line(r, f"{r['name']}: it/s", "iterations_per_s")
            line(r, "  x OpenSpiel's", "ratio", "x", "{:.1f}", target=OUTSIDE_TARGET)
    if res.get("mcgs"):
        m = res["mcgs"]
        print(f" MCGS: {m['label']}")
        rows.section(f"MCGS: {m['label']}, {m['playouts']:,} playouts from the start, seed 1")
        print(f"  {m['playouts']:,} playouts from the start, seed 1")
        line(m, "playouts/s, uniform priors", "playouts_per_s_uniform")
        line(m, "playouts/s, heuristic priors", "playouts_per_s_heuristic")
        print(f"    (mean playout depth {m['mean_depth_uniform']:.2f} / "
              f"{m['mean_depth_heuristic']:.2f} turns; nodes {m['nodes_uniform']:,} / "
              f"{m['nodes_heuristic']:,})")
        line(m, "nodes / 100k playouts, table", "nodes_per_100k_with_table")
        line(m, "nodes / 100k playouts, no table", "nodes_per_100k_without_table")
        line(m, "saved by the transposition table", "table_saving_percent", " %", "{:.1f}")
        line(m, "bytes/node, uniform (node+edges)", "bytes_per_node_uniform", "", "{:,.1f}")
        line(m, "bytes/node, heuristic (+priors)", "bytes_per_node_heuristic", "", "{:,.1f}")
        print(f"    (node struct {m['node_struct_bytes']} B; edges "
              f"{m['edge_bytes_per_node_uniform']:.1f} B/node; priors "
              f"{m['prior_bytes_per_node_heuristic']:.1f} B/node; table "
              f"{m['table_bytes_per_node']:.1f} B/node apart){tag}")
    if "process_agent" in res:
        b = res["process_agent"]
        print(f"  process player's overhead per turn ({b['turns']} turns of an instant-reply "
              f"bot moving {b['agents']} {b['game']} agents, its own time taken out):")
        rows.section("process player's overhead per turn (an instant-reply bot)")
        mark = ("not judged (quick)" if quick else "met" if b["met"] else "NOT MET")
        for key, label in (("p50_ms", "p50"), ("p95_ms", "p95")):
            target = f"<= {b['target_p95_ms']:g} ms" if key == "p95_ms" else ""
            rows.add(f"process player overhead {label}", f"{b[key]:.3f} ms", target,
                     mark.lower() if target else "")
            print(f"    {label:<34}{b[key]:>12.3f} ms"
                  + (f"   target {target}  {mark}" if target else ""))
        if "own_cpu_p50_ms" in b:
            rows.add("its own CPU time per turn p50 / p95",
                     f"{b['own_cpu_p50_ms']:.3f} / {b['own_cpu_p95_ms']:.3f} ms")
            print(f"    {'own CPU time p50 / p95':<34}{b['own_cpu_p50_ms']:>12.3f} / "
                  f"{b['own_cpu_p95_ms']:.3f} ms  (the sandbox's work, waits left out)")
        rows.add("bare pipe round trip p50 / p95 (the floor)",
                 f"{b['pipe_p50_ms']:.3f} / {b['pipe_p95_ms']:.3f} ms")
        print(f"    {'bare pipe round trip p50 / p95':<34}{b['pipe_p50_ms']:>12.3f} / "
              f"{b['pipe_p95_ms']:.3f} ms  (the floor: a line echoed by a Python process)")
    print_gtcfr(res, rows, line, tag)
    if recording:
        r = res["recording"]
        print(f"  recording at {r['budget_ms']:g} ms per player per turn "
              f"(mean turn {r['no_record_mean_turn_ms']:.1f} ms unrecorded):")
        rows.section(f"recording at {r['budget_ms']:g} ms per player per turn")
        for key, x in r.items():
            if not key.startswith("record"):
                continue
            share = x["direct_share"]
            mark = ("not judged (quick)" if quick else
                    "met" if share <= RECORDING_TARGET else "NOT MET")
            rows.add(f"{key}: the recorder's share of the turn", f"{100 * share:.2f}%",
                     "<= 5%", mark.lower())
            print(f"    {key:<32}{100 * share:>14.2f}%   target <= 5%  {mark}"
                  f"   ({x['recorder_ms_per_turn']:.3f} ms/turn, "
                  f"{x['bytes_per_turn'] / 1024:.1f} KiB/turn, a/b {100 * x['ab_share']:+.1f}%)")
    if tournament:
        from ..tournament.benchcase import TARGET_DASK2, TARGET_LOCAL2
        t = res["tournament"]
        print(f" tournament games through the Executor runner ({t['games']} games: "
              f"{t['workload']}; {t['cpus']} CPUs)")
        rows.section(f"tournament games through the Executor runner ({t['games']} games)")
        line(t, "games/s, 1 local worker", "local_1_games_per_s", "", "{:,.2f}")
        line(t, "games/s, 2 local workers", "local_2_games_per_s", "", "{:,.2f}")
        line(t, "  2 local workers / 1", "local_2_speedup", "x", "{:.2f}", target=TARGET_LOCAL2)
        line(t, "games/s, Dask LocalCluster, 2 workers", "dask_2_games_per_s", "", "{:,.2f}")
        line(t, "  Dask 2 workers / 1 local worker", "dask_2_speedup", "x", "{:.2f}",
             target=TARGET_DASK2)
        if t.get("dask_note"):
            print(f"    ({t['dask_note']})")
        per_cpu = ", ".join(f"{k[:-16]} {v:.2f}" for k, v in t.items()
                            if k.endswith("_games_per_cpu_s"))
        print(f"    (games per worker CPU-second: {per_cpu})")
        shares = ", ".join(f"{k[:-10]} {v:.2f}" for k, v in t.items() if k.endswith("_cpu_share"))
        print(f"    (CPU the workers got / wall x workers: {shares}; below ~0.95 the machine "
              "was busy)")
        same = all(v for k, v in t.items() if k.endswith("same_results"))
        print(f"    (same results game for game on every executor: {'yes' if same else 'NO'})")
    print(f"  finished in {res['bench_seconds']} s"
          + (" — a QUICK run: compare its figures only with other quick runs" if quick else ""))
    sys.stdout.flush()


def _run_explorer(json_out: bool, quick: bool, markdown: str | None = None,
                  command: str = "") -> int:
    from .explorer import measure, print_figures
    t0 = time.perf_counter()
    res = {"explorer": measure(quick=quick)}
    if quick:
        res["note"] = QUICK_NOTE
    res["bench_seconds"] = round(time.perf_counter() - t0, 1)
    if json_out:
        print(json.dumps(res))
    else:
        print("sandbox bench --explorer" + (f" — QUICK: {QUICK_NOTE}" if quick else ""))
        print_figures(res["explorer"], quick)
        print(f"  finished in {res['bench_seconds']} s")
        sys.stdout.flush()
    if markdown is not None:
        r = res["explorer"]
        rows = Rows()
        rows.section(f"tree explorer ({r['game']}): {r['tree_nodes']:,} nodes, panel "
                     f"{r['panel'][0]}x{r['panel'][1]}")
        verdict = "not judged (quick)" if quick else "met" if r["met"] else "not met"
        rows.add("zoom frame p95", f"{r['frame_ms_p95']} ms", f"<= {r['target_ms']} ms", verdict)
        rows.add("zoom frame p50", f"{r['frame_ms_p50']} ms")
        rows.add("zoom frame max", f"{r['frame_ms_max']} ms")
        rows.add("C subtree snapshot, max", f"{r['subtree_snapshot_ms_max']} ms")
        write_page(markdown, res, rows, command, quick)
    return 0
