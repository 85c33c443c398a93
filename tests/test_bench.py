"""`python -m sandbox bench`: its figures exist and make sense; its node-count
signature is deterministic. Speeds are never asserted here (they are the
benchmark's business, not a test's)."""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.bench import figures as bench

ROOT = Path(__file__).resolve().parents[1]
POSITIVE = ["engine_steps_per_s", "smitsimax_turns_per_s", "smitsimax_iterations_per_s",
            "python_reference_ratio", "bytes_per_node", "signature", "search_share_of_engine"]
# The node-count signature of the primary case (5 turns x 5,000 iterations,
# seed 1). It changes exactly when the search's behaviour changes: a change
# that moves it states the new figure here and in the closing note.
#   67964  per-turn bounds, rollout discount
#   67817  re-root accounting: the new root is derived from its kept children
#   57492  untried children are tried in random order, not index order
#   61402  the game, not the search: standard snakes spawn food with the
#          official engine's (chance - 1)% (14% at the default 15)
#   351939 Smitsimax's safe moves on by default: simulations no longer end
#          early on a wall or a body, so every iteration expands deeper
#   61402  the bench's headline case names the tutorial's search (safe_moves
#          off), whose cost over the engine its targets measure: the figure
#          of that search before safe moves (the search did not change)
#   52072  exact UCB ties are drawn at random, not kept by the earlier
#          child (the four snakes' spawns are symmetric, so ties are common)
SIGNATURE = 52072


def test_bench_json_quick(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    p = subprocess.run([sys.executable, "-m", "sandbox", "bench", "--json", "--quick"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 1, p.stdout
    res = json.loads(lines[0])
    for key in POSITIVE:
        v = res.get(key)
        assert isinstance(v, (int, float)) and not isinstance(v, bool), (key, v)
        assert math.isfinite(v) and v > 0, (key, v)
    assert res["signature"] == SIGNATURE
    assert res["bytes_per_node"] == 32
    assert res["quick"] is True
    # which vector paths ran (the same text as the C core's own report)
    from sandbox.native import simd_paths
    assert res["simd_paths"] == simd_paths() and res["simd_paths"].startswith("snakes territory: ")
    # a quick run measures one engine-then-match pair: the ratio is its own
    assert res["search_share_of_engine_pairs"] == [res["search_share_of_engine"]]
    assert res["search_share_of_engine"] == pytest.approx(
        res["smitsimax_turns_per_s"] / res["engine_steps_per_s"], abs=0.0011)
    # every selection policy has its figures on snakes and goofspiel, and
    # its bytes per node: the UCB family's 32, the sampling policies' two
    # double sums beside it
    assert set(res["policies"]) == {"ucb1", "ucb1_tuned", "exp3", "rm", "rm_plus", "ucb1_power"}
    for name, row in res["policies"].items():
        assert row["bytes_per_node"] == (48 if name in ("exp3", "rm", "rm_plus") else 32), name
        for kind in ("snakes", "goofspiel"):
            assert row[kind]["iterations_per_s"] > 0 and row[kind]["turns_per_s"] > 0, (name, kind)
    # the MCGS section: both priors' speeds, the table's saving,
    # bytes per node from the arenas' real use (the node does not grow)
    m = res["mcgs"]
    assert m["playouts_per_s_uniform"] > 0 and m["playouts_per_s_heuristic"] > 0
    assert 0 < m["nodes_with_table"] < m["nodes_without_table"] <= m["playouts"] + 1
    assert m["table_saving_percent"] == round(
        100 * (1 - m["nodes_with_table"] / m["nodes_without_table"]), 1)
    assert m["node_struct_bytes"] == 104
    assert m["prior_bytes_per_node_uniform"] == 0 < m["prior_bytes_per_node_heuristic"]
    for name in ("uniform", "heuristic"):
        assert m[f"bytes_per_node_{name}"] == pytest.approx(
            104 + m[f"edge_bytes_per_node_{name}"] + m[f"prior_bytes_per_node_{name}"], abs=0.2)
        # an edge is 16 bytes, a node has 1..25 of them (5 x 5 outcomes)
        assert 16 <= m[f"edge_bytes_per_node_{name}"] <= 16 * 25
        # every registered game has its own figures
    for kind, g in [("snakes", res)] + list(res["games"].items()):
        # an algorithm the core refuses for a game says why (MCGS on 4 snakes)
        for name, rate in g["algorithm_iterations_per_s"].items():
            assert (rate is None) == (name in g["algorithm_refusals"]), (kind, name)
            assert rate is not None or g["algorithm_refusals"][name], (kind, name)
    assert res["algorithm_iterations_per_s"]["mcgs"] is None
    assert "two" in res["algorithm_refusals"]["mcgs"]
    for kind, g in res["games"].items():
        assert g["smitsimax_iterations_per_s"] > 0 and g["engine_steps_per_s"] > 0, kind
        assert all(v > 0 for v in g["first_move_iterations_per_s"].values()), kind
        assert g["engine_agent_turns_per_s"] >= g["engine_steps_per_s"], kind
    # pods: the C model in pod-turns (4 agents a turn) and Smitsimax on its scenario
    pods = res["games"]["pods"]
    assert pods["engine_agent_turns_per_s"] == 4 * pods["engine_steps_per_s"]
    assert pods["agent_turns_target"] == 5_000_000
    sc = pods["scenario"]
    assert sc["name"] == "pods_race_2v2" and sc["max_depth"] == 6 and sc["turn_budget_ms"] == 50
    for key in ("smitsimax_iterations_per_s", "smitsimax_agent_turns_per_s",
                "iterations_per_turn_budget"):
        assert isinstance(sc[key], int) and sc[key] > 0, (key, sc[key])


def test_reference_ratio_compares_one_workload():
    """Both sides of the C/Python ratio do the same work: reference_ratio
    checks iterations, simulated turns and nodes are equal (it raises if not)
    and reports that workload."""
    p, case = bench.primary()
    r = bench.reference_ratio(p, case, iterations=40, turns=2)
    assert r["python_reference_ratio"] > 1
    assert "2 turns x 40 iterations" in r["python_reference_workload"]


def test_signature_is_deterministic_in_process():
    runs = []
    for _ in range(2):
        r = bench.search_run(turns=5, iterations=5000, seed=1)
        runs.append((r["nodes_added"], r["visits_digest"], r["iterations"], r["sim_turns"],
                     r["turns"]))
        r["search"].close()
        r["game"].close()
    assert runs[0] == runs[1]
    assert runs[0][0] > 0 and runs[0][2] == 5000 * runs[0][4]
    other = bench.search_run(turns=5, iterations=5000, seed=2)
    other["search"].close()
    other["game"].close()
    assert (other["nodes_added"], other["visits_digest"]) != runs[0][:2]


def test_quick_figures_are_labelled_and_recording_shows_progress(tmp_path):
    """`--quick` figures are not comparable with a full run's: every figure
    line says quick and no target is judged; `--recording` reports each of
    its matches as it starts (on stderr)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    p = subprocess.run([sys.executable, "-m", "sandbox", "bench", "--quick", "--game", "matrix",
                        "--recording"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert "QUICK" in out[0] and "not comparable with a full run" in out[0]
    figures = [ln for ln in out[1:] if ln.startswith("  ") and any(c.isdigit() for c in ln)
               and "finished" not in ln and "recording at" not in ln]
    assert len(figures) > 10
    for ln in figures:
        assert ln.rstrip().endswith("(quick)") or "not judged (quick)" in ln, ln
    assert not any(ln.rstrip().endswith(("met", "NOT MET")) or " met " in ln for ln in out)
    assert "a QUICK run" in out[-1]
    progress = [ln for ln in p.stderr.splitlines() if ln.startswith("recording cost: match")]
    assert [ln.split()[3] for ln in progress] == ["1/3", "2/3", "3/3"], p.stderr


def test_bench_parallel_table_has_every_mode_and_the_two_thread_ratio():
    """`bench --parallel`: a row per mode, iterations/s per thread count up
    to the cores, the 2-thread ratio against 1 thread of the same mode."""
    import json as _json

    from sandbox.native import cores
    p = subprocess.run([sys.executable, "-m", "sandbox", "bench", "--parallel", "--quick",
                        "--game", "matrix", "--json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    res = _json.loads(p.stdout)
    rows = res["games"]["matrix"]["modes"]
    # matrix has two players: MCGS's modes get rows too
    assert set(rows) == {"serial", "wu_uct", "tree", "root", "leaf",
                         "mcgs_serial", "mcgs_wu_uct", "mcgs_tree"}
    for mode, row in rows.items():
        counts = [int(t) for t in row["iterations_per_s"]]
        assert counts == ([1] if mode.endswith("serial") else list(range(1, cores() + 1)))
        assert all(v > 0 for v in row["iterations_per_s"].values())
        if not mode.endswith("serial") and cores() >= 2:
            its = row["iterations_per_s"]
            assert abs(row["ratio_2_threads"] - its["2"] / its["1"]) < 0.011
    assert "rollouts_per_s" in rows["leaf"]
    # the machine's line latency, and the shared-tree rows' budget at 1.8x
    # recomputed from the row's own one-thread rate
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cores()
    if cores() >= 2 and usable >= 2:
        lt = res["line_transfer_ns"]
        # a figure, or none with the reason (a loaded machine passes the turn
        # by preemption: the ping-pong then gives up at its time limit); no
        # bound on its size, which is the machine's and its load's
        assert (lt is not None and lt > 0) or res["line_transfer_note"], res
        for mode in ("wu_uct", "tree", "mcgs_wu_uct", "mcgs_tree"):
            row = rows[mode]
            if not lt:   # no latency measured: no budget in transfers either
                assert "budget_transfers_at_target" not in row
                continue
            budget = (2 / 1.8 - 1) * 1e9 / row["iterations_per_s"]["1"]
            assert abs(row["budget_ns_at_target"] - budget) <= 0.5 + 1e-9
            assert row["budget_transfers_at_target"] == pytest.approx(budget / lt, abs=0.06)
        assert "budget_ns_at_target" not in rows["root"]
    elif usable < 2:
        assert res["line_transfer_ns"] is None and "two cores" in res["line_transfer_note"]


def test_the_engine_share_is_the_median_pair_and_keeps_its_figures(monkeypatch):
    """search_share_of_engine: three engine-then-match pairs, the median of
    their own ratios, reported with that pair's engine and match figures;
    the other pairs' searches are closed."""
    engines = iter([10.0, 10.0, 20.0])
    turns = iter([5.0, 3.0, 8.0])            # ratios 0.5, 0.3, 0.4 -> 0.4
    closed = []

    class Closing:
        def __init__(self, name):
            self.name = name

        def close(self):
            closed.append(self.name)

    def fake_match(kind, case, quick):
        t = next(turns)
        return ({"smitsimax_turns_per_s": t, "smitsimax_iterations_per_s": t / 2},
                {"search": Closing(f"search {t}"), "game": Closing(f"game {t}")})

    monkeypatch.setattr(bench, "engine_steps_per_s", lambda secs: next(engines))
    monkeypatch.setattr(bench, "match_figures", fake_match)
    p, case = bench.primary()
    res, run = bench.share_pairs(p, case, quick=False)
    assert res["search_share_of_engine"] == 0.4
    assert res["search_share_of_engine_pairs"] == [0.5, 0.3, 0.4]
    assert res["engine_steps_per_s"] == 20.0 and res["smitsimax_turns_per_s"] == 8.0
    assert run["search"].name == "search 8.0"
    assert sorted(closed) == ["game 3.0", "game 5.0", "search 3.0", "search 5.0"]
